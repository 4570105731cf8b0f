import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats } from '../core/ajv-formats.js';
import { comparisonSafe, isComparisonFailure, UNCOMPARABLE } from '../core/comparable.js';

/**
 * A key a user schema's `x-auth-methods` may hold, `{enabled: boolean, ...options}`. The sign-in
 * methods own the list (the flows' method registry): the composition root hands it in, so that a
 * method registered as a plug-in is a key too and this domain keeps no second list of methods.
 */
export interface SchemaKey {
  readonly name: string;
  /** JSON-schema properties the key's object takes beside `enabled` (password's `minLength`). */
  readonly options?: Readonly<Record<string, unknown>>;
}

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
function keywordMeta(keys: readonly SchemaKey[]): Record<string, { type: 'string' | 'boolean' | 'object' } & Record<string, unknown>> {
  return {
    'x-unique': { type: 'string', enum: [...UNIQUE_SCOPES] },
    'x-claim': { type: 'string', enum: [...CLAIMS] },
    'x-audit': { type: 'boolean' },
    'x-auth-methods': {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        keys.map((key) => [
          key.name,
          {
            type: 'object',
            required: ['enabled'],
            additionalProperties: false,
            properties: { enabled: { type: 'boolean' }, ...key.options },
          },
        ]),
      ),
    },
  };
}

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

  /** `keys`: what `x-auth-methods` may hold; a key repeated is a wiring mistake and throws. */
  constructor(keys: readonly SchemaKey[]) {
    const names = keys.map((key) => key.name);
    const repeated = names.find((name, index) => names.indexOf(name) !== index);
    if (repeated !== undefined) throw new Error(`The x-auth-methods key "${repeated}" is declared twice.`);
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
    for (const [keyword, metaSchema] of Object.entries(keywordMeta(keys))) {
      this.ajv.addKeyword({ keyword, metaSchema: metaSchema as object, schemaType: metaSchema.type });
    }
    for (const keyword of DOCUMENT_KEYWORDS) this.ajv.addKeyword({ keyword });
  }

  /** Checks a document against the 2020-12 meta-schema and compiles it; never throws. */
  compile(document: Record<string, unknown>): CompileResult {
    const errors: CompileResult['errors'] = [];
    const { $schema: _dialect, ...body } = document;
    let valid: boolean;
    try {
      valid = this.ajv.validateSchema({ ...body, $schema: DIALECT_2020_12 }) as boolean;
    } catch (error) {
      // The meta-schema's uniqueItems (on `type`) compares whole values too.
      if (!isComparisonFailure(error)) throw error;
      return { errors: [{ path: 'schema', message: UNCOMPARABLE.message! }] };
    }
    if (!valid) {
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
      return { validate: comparisonSafe(validate), errors };
    } catch (error) {
      return { errors: [{ path: 'schema', message: error instanceof Error ? error.message : 'cannot be compiled' }] };
    } finally {
      this.ajv.removeSchema(body);
      this.warnings = [];
    }
  }
}
