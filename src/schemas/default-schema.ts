import { DIALECT_2020_12 } from './keywords.js';

/**
 * The user schema every new project starts with, so that sign-up and sign-in work out of the box:
 * an e-mail address that identifies the user (unique in the project, audited, the `email` claim),
 * an optional name feeding `given_name`/`family_name`, passwords, passkeys, TOTP and recovery codes enabled.
 * `$id` is filled in per project when it is stored.
 */
export function defaultUserSchema(): Record<string, unknown> {
  return {
    $schema: DIALECT_2020_12,
    kind: 'user-schema',
    objectType: 'user',
    metaSchema: DIALECT_2020_12,
    title: 'User',
    description: 'The default user schema: an e-mail address and an optional name.',
    type: 'object',
    required: ['email'],
    additionalProperties: false,
    'x-auth-methods': {
      password: { enabled: true },
      passkey: { enabled: true },
      magic_link: { enabled: false },
      // Offered only once the project adds a provider (docs/sso.md): the default steps list every enabled one.
      sso: { enabled: true },
      otp: { enabled: false },
      totp: { enabled: true },
      recovery_code: { enabled: true },
    },
    properties: {
      email: {
        type: 'string',
        format: 'email',
        maxLength: 320,
        description: 'The address the user signs in with',
        'x-unique': 'project',
        'x-claim': 'email',
        'x-audit': true,
      },
      name: {
        type: 'object',
        additionalProperties: false,
        properties: {
          given: { type: 'string', minLength: 1, maxLength: 100, 'x-claim': 'given_name' },
          family: { type: 'string', minLength: 1, maxLength: 100, 'x-claim': 'family_name' },
        },
      },
    },
  };
}
