/** The `flow_definition` object of the interface (Resources → Flow definition). */
export interface FlowAction {
  name: string;
  kind: string;
  primary?: boolean;
  text_key?: string;
}

export interface FlowTransition {
  target: string;
  action?: string;
}

export interface FlowGateSpec {
  kind?: string;
}

/** A step of a definition; a method adds properties of its own (`stepProperties`, typed by its `view.ts`). */
export interface FlowStepDef {
  name: string;
  fields?: string[];
  actions?: FlowAction[];
  transitions?: Record<string, FlowTransition>;
  on_success?: string;
  complete?: string;
  /** Extension: gates the step declares, e.g. `{captcha: {}}` (see docs/flows.md). */
  gates?: Record<string, FlowGateSpec>;
  /** Extension: text keys of the step; defaults are `step.<name>.title` / `.description`. */
  texts?: { title_key?: string; description_key?: string };
}

export interface FlowDefinitionDoc {
  name: string;
  status?: string;
  user_schema?: string;
  purposes: Record<string, string>;
  audience?: { app_ids?: string[] };
  steps: FlowStepDef[];
}

export const DEFINITION_STATUSES = ['active', 'inactive'] as const;

/** Field reference prefix of method fields: `x-auth-methods#password` is submitted under the key `password`. */
export const METHOD_FIELD_PREFIX = 'x-auth-methods#';

/** Transition actions that leave the definition. */
export const CROSS_FLOW_ACTIONS = ['switch', 'pivot'] as const;
/** Outcome triggers (not action names); methods add their own (see flows/methods). */
export const OUTCOME_TRIGGERS = ['user_not_found', 'user_already_exists', 'next', 'second_factor', 'reauthenticate', 'confirm_password'] as const;

/** A field reference of the form `x-<namespace>#<name>` (a method's field) is submitted under `<name>`. */
export function submitKey(field: string): string {
  const hash = field.indexOf('#');
  return field.startsWith('x-') && hash > 0 ? field.slice(hash + 1) : field;
}

export const isCompleteStep = (step: FlowStepDef): boolean => step.complete !== undefined;

/** Neither fields nor actions and no `complete`: the server passes it without showing it. */
export const isInvisibleStep = (step: FlowStepDef): boolean =>
  !isCompleteStep(step) && (step.fields?.length ?? 0) === 0 && (step.actions?.length ?? 0) === 0;
