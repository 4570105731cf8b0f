import type { SchemaView } from './schema-view.js';
import { PASSWORD_FIELD as PASSWORD } from '../methods/password/index.js';
import { RECOVERY_CODE_FIELD } from '../methods/recovery/index.js';
import { RECOVERY_CODE_FACTOR_FIELD } from '../methods/recovery-codes/index.js';
import { TOTP_FIELD } from '../methods/totp/index.js';
import { settingsDefinition } from './defaults-settings.js';
import { OTP_FIELD } from '../methods/otp/index.js';
import { ALL_PROVIDERS } from '../../sso/service.js';
import type { FlowDefinitionDoc, FlowStepDef, FlowTransition } from './types.js';

/**
 * The definitions every project starts with (DESIGN §4.5), built for its default user schema:
 * `login` (identifier → password → complete), `register` (identifier, name, password →
 * create_user → complete) and `recovery` (identifier → one-time code by mail → new password →
 * complete). login ↔ register switch; login pivots to recovery and resumes when it completes.
 * Where the schema enables TOTP, login asks users who have one for a code after the password
 * (`second_factor`, or a recovery code instead), and `settings` manages one's own credentials.
 */
export function defaultDefinitions(schema: SchemaView): FlowDefinitionDoc[] {
  const identifier = schema.identifiers.includes('email') ? 'email' : schema.identifiers[0] ?? 'email';
  const nameFields = ['name.given', 'name.family', 'name'].filter((path) => schema.fields.has(path));
  const required = [...schema.fields.values()].filter((f) => f.required && f.path !== identifier).map((f) => f.path);
  const registerFields = [identifier, ...new Set([...required, ...nameFields])];
  const user_schema = schema.uri;
  // Passkeys where the schema enables them (DESIGN §4.10): a passkey sign-in beside the identifier
  // (usernameless, or for the typed identifier) and a passkey-only registration.
  const passkeys = schema.methods.has('passkey');
  const passkeyLogin = passkeys ? [{ name: 'passkey', kind: 'passkey', primary: false, text_key: 'action.sign_in_with_passkey' }] : [];
  const passkeyRegister = passkeys ? [{ name: 'passkey', kind: 'passkey_register', primary: false, text_key: 'action.register_with_passkey' }] : [];
  const toDone = (actions: unknown[]): Record<string, FlowTransition> => (actions.length > 0 ? { passkey: { target: 'done' } } : {});
  // TOTP as the second factor (DESIGN §4.12), with recovery codes as the way out when the app is lost.
  const totp = schema.methods.has('totp');
  const recoveryCodes = totp && schema.methods.has('recovery_code');
  const secondFactorSteps: FlowStepDef[] = totp
    ? [
        {
          name: 'totp',
          fields: [TOTP_FIELD],
          actions: [
            { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
            ...(recoveryCodes ? [{ name: 'use_recovery_code', kind: 'navigate', primary: false, text_key: 'action.use_recovery_code' }] : []),
          ],
          transitions: { verify: { target: 'done' }, ...(recoveryCodes ? { use_recovery_code: { target: 'recovery_code' } } : {}) },
        },
        ...(recoveryCodes
          ? [
              {
                name: 'recovery_code',
                fields: [RECOVERY_CODE_FACTOR_FIELD],
                actions: [
                  { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
                  { name: 'use_totp', kind: 'navigate', primary: false, text_key: 'action.use_totp' },
                ],
                transitions: { verify: { target: 'done' }, use_totp: { target: 'totp' } },
              },
            ]
          : []),
      ]
    : [];
  // Upstream SSO where the schema enables it (DESIGN §4.14): every provider the project enables
  // (`*`) beside the identifier and on registration; nothing shows until one is added. An e-mail
  // that belongs to an account is linked after its password (`link_account`).
  const sso = schema.methods.has('sso');
  // A user with TOTP enrolled is asked for it after an upstream sign-in too.
  const toSecondFactor: Record<string, FlowTransition> = totp ? { second_factor: { target: 'totp' } } : {};
  const ssoAction = sso ? [{ name: 'sso', kind: 'sso', primary: false, text_key: 'action.sso' }] : [];
  const ssoLink = sso && schema.methods.has('password');
  const ssoStep = (step: FlowStepDef): FlowStepDef =>
    sso
      ? {
          ...step,
          actions: [...(step.actions ?? []), ...ssoAction],
          sso_providers: [ALL_PROVIDERS],
          transitions: { ...step.transitions, callback: { target: totp ? 'after_sso' : 'done' }, ...(ssoLink ? { link_account: { target: 'link_account' } } : {}) },
        }
      : step;
  const ssoSteps: FlowStepDef[] = [
    // Passed unseen after an upstream sign-in: a user with TOTP enrolled is asked for it (the
    // method's follow-up), as after a password. Not on the identifier step itself, where the same
    // follow-up would skip the password.
    ...(sso && totp ? [{ name: 'after_sso', transitions: { second_factor: { target: 'totp' }, next: { target: 'done' } } }] : []),
    ...(ssoLink
      ? [
          {
            name: 'link_account',
            fields: [PASSWORD],
            actions: [{ name: 'confirm', kind: 'submit', primary: true, text_key: 'action.confirm' }],
            on_success: 'link_sso',
            transitions: { confirm: { target: 'done' }, ...toSecondFactor },
          },
        ]
      : []),
  ];
  // E-mail codes where the schema enables them (DESIGN §4.11): "e-mail me a code" beside the
  // password switches to `login_code`, a definition of its own (purpose `login_code`), so that an
  // operator can also make it the `login` of an audience like any other definition.
  const codes = schema.methods.has('otp');
  const codeAction = codes ? [{ name: 'email_code', kind: 'navigate', primary: false, text_key: 'action.email_me_a_code' }] : [];
  const toCodes = (): Record<string, FlowTransition> => (codes ? { email_code: { target: 'login_code', action: 'switch' } } : {});
  const codeLogin: FlowDefinitionDoc[] = codes
    ? [
        {
          name: 'login_code',
          status: 'active',
          user_schema,
          purposes: { login_code: 'identify' },
          steps: [
            {
              name: 'identify',
              fields: [identifier],
              actions: [
                { name: 'send_code', kind: 'submit', primary: true, text_key: 'action.email_me_a_code' },
                { name: 'use_password', kind: 'navigate', primary: false, text_key: 'action.use_password' },
              ],
              on_success: 'send_otp',
              transitions: { send_code: { target: 'code' }, use_password: { target: 'login', action: 'switch' } },
            },
            {
              name: 'code',
              fields: [OTP_FIELD],
              actions: [
                { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
                { name: 'resend', kind: 'navigate', primary: false, text_key: 'action.resend_code' },
              ],
              transitions: { verify: { target: 'done' }, resend: { target: 'identify' } },
            },
            { name: 'done', complete: 'redirect' },
          ],
        },
      ]
    : [];
  return [
    {
      name: 'login',
      status: 'active',
      user_schema,
      purposes: { login: 'identify' },
      steps: [
        ssoStep({
          name: 'identify',
          fields: [identifier],
          actions: [
            { name: 'continue', kind: 'submit', primary: true, text_key: 'action.continue' },
            { name: 'sign_up', kind: 'navigate', primary: false, text_key: 'action.sign_up' },
            { name: 'forgot_password', kind: 'navigate', primary: false, text_key: 'action.forgot_password' },
            ...passkeyLogin,
            ...codeAction,
          ],
          transitions: {
            continue: { target: 'password' },
            sign_up: { target: 'register', action: 'switch' },
            forgot_password: { target: 'recovery', action: 'pivot' },
            ...toDone(passkeyLogin),
            ...toCodes(),
          },
        }),
        {
          name: 'password',
          fields: [PASSWORD],
          actions: [
            { name: 'sign_in', kind: 'submit', primary: true, text_key: 'action.sign_in' },
            { name: 'forgot_password', kind: 'navigate', primary: false, text_key: 'action.forgot_password' },
            ...codeAction,
          ],
          transitions: { sign_in: { target: 'done' }, forgot_password: { target: 'recovery', action: 'pivot' }, ...(totp ? { second_factor: { target: 'totp' } } : {}), ...toCodes() },
        },
        ...secondFactorSteps,
        ...ssoSteps,
        { name: 'done', complete: 'redirect' },
      ],
    },
    {
      name: 'register',
      status: 'active',
      user_schema,
      purposes: { register: 'register' },
      steps: [
        ssoStep({
          name: 'register',
          fields: [...registerFields, PASSWORD],
          actions: [
            { name: 'create', kind: 'submit', primary: true, text_key: 'action.create_account' },
            { name: 'sign_in', kind: 'navigate', primary: false, text_key: 'action.sign_in_instead' },
            ...passkeyRegister,
          ],
          on_success: 'create_user',
          transitions: { create: { target: 'done' }, sign_in: { target: 'login', action: 'switch' }, ...toDone(passkeyRegister) },
        }),
        ...ssoSteps,
        // An existing user signing in upstream from the register page meets the same second factor.
        ...(sso ? secondFactorSteps : []),
        { name: 'done', complete: 'redirect' },
      ],
    },
    {
      name: 'recovery',
      status: 'active',
      user_schema,
      purposes: { recovery: 'request' },
      steps: [
        {
          name: 'request',
          fields: [identifier],
          actions: [{ name: 'send_code', kind: 'submit', primary: true, text_key: 'action.send_code' }],
          on_success: 'send_recovery_code',
          transitions: { send_code: { target: 'code' } },
        },
        {
          name: 'code',
          fields: [RECOVERY_CODE_FIELD],
          actions: [
            { name: 'verify', kind: 'submit', primary: true, text_key: 'action.verify_code' },
            { name: 'resend', kind: 'navigate', primary: false, text_key: 'action.resend_code' },
          ],
          transitions: { verify: { target: 'new_password' }, resend: { target: 'request' } },
        },
        {
          name: 'new_password',
          fields: [PASSWORD],
          actions: [{ name: 'save', kind: 'submit', primary: true, text_key: 'action.save_password' }],
          on_success: 'set_password',
          transitions: { save: { target: 'done' } },
        },
        { name: 'done', complete: 'show' },
      ],
    },
    settingsDefinition(schema),
    ...codeLogin,
  ];
}
