import { sha256Hex } from '../core/crypto.js';
import { valueAt, type SchemaModel } from '../schemas/document.js';
import type { IdentifierRow } from '../db/tables/users.js';

/** Values longer than this are indexed by their hash, so that no identifier overflows a btree entry. */
const MAX_INDEXED_LENGTH = 256;

/**
 * How identifiers compare: NFKC, trimmed, case-folded (upper-then-lower also folds `ß` to `ss`).
 * `A@Example.com ` and `a@example.com` are one identifier. Numbers compare by their JSON text.
 */
export function normaliseIdentifier(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'string') text = value.normalize('NFKC').trim().toUpperCase().toLowerCase();
  else if (typeof value === 'number' && Number.isFinite(value)) text = JSON.stringify(value);
  else return undefined;
  if (text.length === 0) return undefined;
  return text.length > MAX_INDEXED_LENGTH ? `sha256:${sha256Hex(text)}` : text;
}

/** The rows that make a user's x-unique attributes unique; written in the user's transaction. */
export function identifierRows(
  model: SchemaModel,
  user: { projectId: string; id: string; teamId: string | null; attributes: Record<string, unknown> },
): IdentifierRow[] {
  const rows: IdentifierRow[] = [];
  for (const property of model.properties) {
    if (property.unique !== 'project' && property.unique !== 'team') continue;
    const value = normaliseIdentifier(valueAt(user.attributes, property.path));
    if (value === undefined) continue;
    rows.push({
      project_id: user.projectId,
      object_type: model.objectType,
      scope: property.unique === 'project' ? '' : `team:${user.teamId ?? ''}`,
      attribute: property.path,
      value,
      user_id: user.id,
    });
  }
  return rows;
}

export type AuditAction = 'set' | 'changed' | 'removed';

/** Which audited attributes differ between two versions of a user's attributes (values are never kept). */
export function auditedChanges(
  model: SchemaModel,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): Array<{ attribute: string; action: AuditAction }> {
  const changes: Array<{ attribute: string; action: AuditAction }> = [];
  for (const property of model.properties) {
    if (!property.audit) continue;
    const old = before === undefined ? undefined : valueAt(before, property.path);
    const next = valueAt(after, property.path);
    if (JSON.stringify(old) === JSON.stringify(next)) continue;
    const action: AuditAction = old === undefined ? 'set' : next === undefined ? 'removed' : 'changed';
    changes.push({ attribute: property.path, action });
  }
  return changes;
}
