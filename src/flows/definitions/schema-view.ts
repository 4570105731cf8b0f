import type { FlowStepDef } from './types.js';

/**
 * What the flow engine needs to know about a user schema: its fields (dotted paths for nested
 * properties), which are identifiers (`x-unique`), and which auth methods are enabled.
 */
export interface SchemaField {
  path: string;
  type?: string;
  format?: string;
  required: boolean;
  unique?: string;
  maxLength?: number;
  minLength?: number;
}

export interface SchemaView {
  id: string;
  uri: string;
  fields: Map<string, SchemaField>;
  methods: Set<string>;
  /** Identifier fields (`x-unique` other than `unspecified`), in declaration order. */
  identifiers: string[];
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function walk(properties: Json, required: string[], prefix: string, parentRequired: boolean, out: Map<string, SchemaField>): void {
  for (const [name, raw] of Object.entries(properties)) {
    if (!isObject(raw)) continue;
    const path = prefix ? `${prefix}.${name}` : name;
    const isRequired = parentRequired && required.includes(name);
    const type = typeof raw.type === 'string' ? raw.type : undefined;
    if (type === 'object' && isObject(raw.properties)) {
      walk(raw.properties, Array.isArray(raw.required) ? (raw.required as string[]) : [], path, isRequired, out);
      continue;
    }
    out.set(path, {
      path,
      type,
      format: typeof raw.format === 'string' ? raw.format : undefined,
      required: isRequired,
      unique: typeof raw['x-unique'] === 'string' ? raw['x-unique'] : undefined,
      maxLength: typeof raw.maxLength === 'number' ? raw.maxLength : undefined,
      minLength: typeof raw.minLength === 'number' ? raw.minLength : undefined,
    });
  }
}

export function schemaView(id: string, uri: string, document: Json): SchemaView {
  const fields = new Map<string, SchemaField>();
  if (isObject(document.properties)) {
    walk(document.properties, Array.isArray(document.required) ? (document.required as string[]) : [], '', true, fields);
  }
  const methods = new Set<string>();
  const declared = document['x-auth-methods'];
  if (isObject(declared)) {
    for (const [method, setting] of Object.entries(declared)) {
      if (isObject(setting) && setting.enabled === true) methods.add(method);
    }
  }
  const identifiers = [...fields.values()].filter((f) => f.unique !== undefined && f.unique !== 'unspecified').map((f) => f.path);
  return { id, uri, fields, methods, identifiers };
}

/** Looks a user schema up by revision id or `$id` URL within a project. */
export interface SchemaSource {
  resolve(projectId: string, ref: string): Promise<SchemaView | undefined>;
}

/** The identifier a step asks for (a property with `x-unique`), if any. */
export function identifierField(step: FlowStepDef, schema: SchemaView): string | undefined {
  return (step.fields ?? []).find((field) => schema.identifiers.includes(field));
}
