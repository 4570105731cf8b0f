import type { SchemaView } from '../definitions/schema-view.js';
import type { FlowStepDef } from '../definitions/types.js';

/** The identifier a step asks for (a property with `x-unique`), if any. */
export function identifierField(step: FlowStepDef, schema: SchemaView): string | undefined {
  return (step.fields ?? []).find((field) => schema.identifiers.includes(field));
}
