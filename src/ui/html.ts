/** HTML building blocks: every value that reaches markup passes through `esc` or `attr`. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** ` name="value"` for each defined attribute; `true` writes a bare boolean attribute. */
export function attrs(values: Record<string, string | number | boolean | undefined | null>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${esc(v)}"`))
    .join('');
}

/** JSON inside `<script type="application/json">`: `<` cannot close the element. */
export function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${esc(id)}">${json}</script>`;
}

/** An element id from a field name (`name.given` -> `f-name-given`). */
export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
