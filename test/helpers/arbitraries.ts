import fc from 'fast-check';

/**
 * fast-check arbitraries for hostile HTTP input. `valueFor` follows a route's JSON Schema most of
 * the time (so requests get past validation into services and SQL) and breaks it the rest of the
 * time (so validation itself is attacked).
 */

/** Strings that have broken services before: empty and huge, numbers and keywords in text, prototype keys, SQL and path tricks, NUL and lone surrogates. */
export const TRICKY_STRINGS = [
  '', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '[]', '{}', '__proto__', 'constructor', "' or 1=1 --", '../../etc/passwd',
  '\u0000', 'a\u0000b', '\ud800', '\u202e', 'a'.repeat(300), 'https://example.com', 'urn:nist:aal:2', 'P1D', '2030-01-01T00:00:00Z',
];

/** Raw path or query fragments, some deliberately not valid percent-encoding. */
export const RAW_SEGMENTS = ['%', '%E0%A4%A', '%00', '..', '.', '%2F', ';', '%20', '%u0000'];

export function hostileString(pool: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...TRICKY_STRINGS, ...pool),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 30 }),
    // PostgreSQL refuses NUL in text: every value that reaches SQL must survive one.
    fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...pool, 'x')).map(([text, id]) => `${id}${text}\u0000`),
  );
}

export function hostileJson(pool: readonly string[] = []): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 2, arbitrary: hostileString(pool) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>({ a: { b: { c: [] } } }, -0, 2 ** 53, -1e300, 1e300, [null], { __proto__: null }) },
    // Members that shadow Object.prototype's methods break String(), `${}` and deep-equal comparisons.
    { weight: 1, arbitrary: fc.constantFrom<unknown>({ valueOf: false }, { toString: 1 }, { toJSON: 'x', hasOwnProperty: null }, [{ valueOf: 0 }, { valueOf: 0 }]) },
  );
}

/** A value one time in `every`, otherwise null (fc.option's `freq` counts the nulls instead). */
export function sometimes<T>(arbitrary: fc.Arbitrary<T>, every: number): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

/** encodeURIComponent, except that lone surrogates become U+FFFD instead of throwing. */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
  }
}

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};

function stringFor(schema: Schema, name: string, pool: readonly string[]): fc.Arbitrary<string> {
  const min = Number(schema.minLength ?? 0);
  const max = Math.max(min, Math.min(Number(schema.maxLength ?? 40), 60));
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'date-time':
      return fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString());
  }
  // Identifiers from the pool make lookups find real rows (and other projects' rows); the
  // id of the same kind (`project_id` -> the first `proj_` id, the caller's project) comes first.
  if (/(^|_)id$/.test(name) && pool.length > 0) {
    const preferred = pool.find((value) => value.startsWith(`${name.replace(/_id$/, '').slice(0, 4)}_`)) ?? pool[0];
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(preferred) },
      { weight: 2, arbitrary: fc.constantFrom(...pool) },
      { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    );
  }
  return fc.string({ minLength: min, maxLength: max });
}

function objectFor(schema: Schema, pool: readonly string[], depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, valueFor(sub, pool, depth + 1, key)]));
  const extraKey = fc.constantFrom('extra', '__proto__', 'constructor', 'valueOf', 'toString', 'id', 'metadata');
  return fc
    .tuple(fc.record(shape, { requiredKeys: schema.required ?? [] }), sometimes(fc.tuple(extraKey, hostileJson(pool)), 10))
    .map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
}

function fittingValue(schema: Schema, pool: readonly string[], depth: number, name: string): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((variant) => valueFor(variant, pool, depth + 1, name)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema, name, pool);
    case 'integer':
      return fc.integer({ min: Number(schema.minimum ?? -5), max: Number(schema.maximum ?? 1000) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: Number(schema.minimum ?? -1e6), max: Number(schema.maximum ?? 1e6) });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, pool, depth + 1, name), { maxLength: Math.min(Number(schema.maxItems ?? 4), 4) });
    case 'object':
      return objectFor(schema, pool, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Mostly values that fit `schema`, sometimes anything at all. */
export function valueFor(schema: unknown, pool: readonly string[], depth = 0, name = ''): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 5) return hostileJson(pool);
  return fc.oneof({ weight: depth === 0 ? 5 : 10, arbitrary: fittingValue(schema as Schema, pool, depth, name) }, { weight: 1, arbitrary: hostileJson(pool) });
}

/** A value as it appears in a path segment or query string. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}
