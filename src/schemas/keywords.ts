import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

/** The sign-in methods a user schema can switch on (`x-auth-methods`). */
export const AUTH_METHODS = ['password', 'passkey', 'magic_link', 'sso', 'otp', 'totp', 'recovery_code'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const UNIQUE_SCOPES = ['project', 'team', 'unspecified'] as const;
export type UniqueScope = (typeof UNIQUE_SCOPES)[number];

/** Standard OIDC claims an attribute may feed; `sub` is always the user id and never mapped. */
export const CLAIMS = [
  'name', 'given_name', 'family_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture',
  'website', 'email', 'gender', 'birthdate', 'zoneinfo', 'locale', 'phone_number',
] as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Meta-schemas of Gatehouse's keywords; Ajv checks them whenever a document is compiled. */
const KEYWORD_META = {
  'x-unique': { type: 'string', enum: [...UNIQUE_SCOPES] },
  'x-claim': { type: 'string', enum: [...CLAIMS] },
  'x-audit': { type: 'boolean' },
  'x-auth-methods': {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      AUTH_METHODS.map((method) => [
        method,
        {
          type: 'object',
          required: ['enabled'],
          additionalProperties: false,
          properties: {
            enabled: { type: 'boolean' },
            ...(method === 'password'
              ? { minLength: { type: 'integer', minimum: PASSWORD_MIN_LENGTH, maximum: PASSWORD_MAX_LENGTH } }
              : {}),
          },
        },
      ]),
    ),
  },
} as const;

/** The document keywords of a user schema that JSON Schema itself does not define (annotations). */
const DOCUMENT_KEYWORDS = ['kind', 'objectType', 'metaSchema'];

export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

export interface CompileResult {
  validate?: ValidateFunction;
  errors: Array<{ path: string; message: string }>;
}

/**
 * One Ajv per container: draft 2020-12, formats enforced, Gatehouse's keywords declared with their
 * own meta-schemas. Compiled documents are not registered under their `$id` (two projects may use
 * the same `$id`); the caller caches validators per revision instead.
 */
export class SchemaCompiler {
  private readonly ajv: Ajv2020;
  /** Warnings of the compile in progress; compiling is synchronous, so one sink suffices. */
  private warnings: string[] = [];

  constructor() {
    this.ajv = new Ajv2020({
      allErrors: true,
      strict: false,
      addUsedSchema: false,
      validateFormats: true,
      useDefaults: false,
      coerceTypes: false,
      // 1e999 parses to Infinity, which JSON cannot store: never let it pass as a number.
      strictNumbers: true,
      logger: {
        log: () => {},
        warn: (...args: unknown[]) => void this.warnings.push(args.map(String).join(' ')),
        error: (...args: unknown[]) => void this.warnings.push(args.map(String).join(' ')),
      },
    });
    addFormats(this.ajv);
    for (const [keyword, metaSchema] of Object.entries(KEYWORD_META)) {
      this.ajv.addKeyword({ keyword, metaSchema: metaSchema as object, schemaType: metaSchema.type });
    }
    for (const keyword of DOCUMENT_KEYWORDS) this.ajv.addKeyword({ keyword });
  }

  /** Checks a document against the 2020-12 meta-schema and compiles it; never throws. */
  compile(document: Record<string, unknown>): CompileResult {
    const errors: CompileResult['errors'] = [];
    const { $schema: _dialect, ...body } = document;
    if (!this.ajv.validateSchema({ ...body, $schema: DIALECT_2020_12 })) {
      for (const error of this.ajv.errors ?? []) {
        errors.push({ path: `schema${error.instancePath}`, message: error.message ?? 'is invalid' });
      }
      return { errors };
    }
    this.warnings = [];
    try {
      const validate = this.ajv.compile(body);
      const unknownFormats = this.warnings.filter((warning) => warning.includes('unknown format'));
      if (unknownFormats.length > 0) return { errors: unknownFormats.map((message) => ({ path: 'schema', message })) };
      return { validate, errors };
    } catch (error) {
      return { errors: [{ path: 'schema', message: error instanceof Error ? error.message : 'cannot be compiled' }] };
    } finally {
      this.ajv.removeSchema(body);
      this.warnings = [];
    }
  }
}
