import { PASSWORD_MIN_LENGTH, UNIQUE_SCOPES, type UniqueScope } from './keywords.js';

/**
 * What Gatehouse reads out of a user schema besides validation: which properties are identifiers
 * (`x-unique`), which feed claims (`x-claim`), which are audited (`x-audit`), and which sign-in
 * methods are enabled (`x-auth-methods`). Nested properties are addressed with dots (`name.given`).
 */
export interface PropertySpec {
  path: string;
  type?: string;
  format?: string;
  unique?: UniqueScope;
  claim?: string;
  audit: boolean;
}

export interface SchemaModel {
  objectType: string;
  properties: PropertySpec[];
  /** Each `x-auth-methods` key the document holds: whether it is enabled. A key it lacks is off. */
  authMethods: Readonly<Partial<Record<string, boolean>>>;
  passwordMinLength: number;
}

export const DEFAULT_OBJECT_TYPE = 'user';
export const MAX_DOCUMENT_BYTES = 256 * 1024;
const MAX_DEPTH = 64;
const OBJECT_TYPE = /^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/;

export type Issue = { path: string; message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nesting depth without recursion, so that a hostile document cannot overflow the stack. */
export function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (depth > MAX_DEPTH) return depth;
    if (node && typeof node === 'object') for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

function walkProperties(schema: Record<string, unknown>, prefix: string, out: PropertySpec[], issues: Issue[]): void {
  const properties = schema.properties;
  if (!isObject(properties)) return;
  for (const [name, definition] of Object.entries(properties)) {
    if (!isObject(definition)) continue;
    const path = prefix ? `${prefix}.${name}` : name;
    const where = `schema/properties/${path.replaceAll('.', '/properties/')}`;
    const type = typeof definition.type === 'string' ? definition.type : undefined;
    const spec: PropertySpec = {
      path,
      type,
      format: typeof definition.format === 'string' ? definition.format : undefined,
      audit: definition['x-audit'] === true,
    };
    const unique = definition['x-unique'];
    if (unique !== undefined && unique !== 'unspecified') {
      if (!UNIQUE_SCOPES.includes(unique as UniqueScope)) {
        issues.push({ path: `${where}/x-unique`, message: `must be one of ${UNIQUE_SCOPES.join(', ')}` });
      } else if (type !== 'string' && type !== 'integer' && type !== 'number') {
        issues.push({ path: `${where}/x-unique`, message: 'only a property of type string, integer or number can be unique' });
      } else {
        spec.unique = unique as UniqueScope;
      }
    }
    if (typeof definition['x-claim'] === 'string') spec.claim = definition['x-claim'];
    if (spec.unique || spec.claim || spec.audit) out.push(spec);
    if (type === 'object') walkProperties(definition, path, out, issues);
  }
}

/** Structural checks that JSON Schema's meta-schema cannot express, plus the model they yield. */
export function analyseDocument(document: Record<string, unknown>): { model?: SchemaModel; issues: Issue[] } {
  const issues: Issue[] = [];
  // Depth first: serialising a hostile, deeply nested document would overflow the stack.
  if (depthOf(document) > MAX_DEPTH) return { issues: [{ path: 'schema', message: `must nest at most ${MAX_DEPTH} levels` }] };
  if (Buffer.byteLength(JSON.stringify(document)) > MAX_DOCUMENT_BYTES) {
    return { issues: [{ path: 'schema', message: `must be at most ${MAX_DOCUMENT_BYTES} bytes` }] };
  }
  if (document.type !== 'object') issues.push({ path: 'schema/type', message: 'a user schema must have type "object"' });
  if (document.kind !== undefined && document.kind !== 'user-schema') {
    issues.push({ path: 'schema/kind', message: 'must be "user-schema" (or "schema-url" with a url)' });
  }
  // Only an absent objectType takes the default; `null` is a wrong value like any other.
  const objectType = document.objectType === undefined ? DEFAULT_OBJECT_TYPE : document.objectType;
  if (typeof objectType !== 'string' || !OBJECT_TYPE.test(objectType)) {
    issues.push({ path: 'schema/objectType', message: 'must be a name of letters, digits and _.:- (at most 100)' });
  }
  for (const key of ['$schema', 'metaSchema', 'title', 'description'] as const) {
    if (document[key] !== undefined && typeof document[key] !== 'string') issues.push({ path: `schema/${key}`, message: 'must be a string' });
  }
  if (document.$id !== undefined && !isAbsoluteUri(document.$id)) {
    issues.push({ path: 'schema/$id', message: 'must be an absolute URI without fragment, at most 2048 characters' });
  }
  const methods = document['x-auth-methods'];
  if (methods !== undefined && !isObject(methods)) issues.push({ path: 'schema/x-auth-methods', message: 'must be an object' });
  const properties: PropertySpec[] = [];
  walkProperties(document, '', properties, issues);
  if (issues.length > 0) return { issues };
  const configured = isObject(methods) ? methods : {};
  // Which keys may appear is the compiler's check (SchemaCompiler, given the methods' keys).
  const authMethods = Object.fromEntries(Object.entries(configured).map(([method, entry]) => [method, isObject(entry) && entry.enabled === true]));
  const password = configured.password;
  const passwordMinLength = isObject(password) && typeof password.minLength === 'number' ? password.minLength : PASSWORD_MIN_LENGTH;
  return { model: { objectType: objectType as string, properties, authMethods, passwordMinLength }, issues };
}

export function isAbsoluteUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048 || value.includes('#')) return false;
  try {
    const url = new URL(value);
    return url.protocol.length > 1;
  } catch {
    return false;
  }
}

/** Reads a dotted attribute path (`name.given`) out of an attributes object. */
export function valueAt(attributes: Record<string, unknown>, path: string): unknown {
  let current: unknown = attributes;
  for (const part of path.split('.')) {
    if (!isObject(current) || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = current[part];
  }
  return current;
}
