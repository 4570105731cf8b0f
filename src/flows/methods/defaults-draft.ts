import type { SchemaView } from '../definitions/schema-view.js';
import type { FlowAction, FlowDefinitionDoc, FlowStepDef, FlowTransition } from '../definitions/types.js';

/**
 * Where an edit goes among its siblings (steps of a definition, actions and transitions of a
 * step), by name. Without a place, or when the named sibling is absent, a step goes before the
 * definition's first `complete` step and an action or transition goes last. The defaults are
 * stored and returned as JSON, so the order is part of what a project gets.
 */
export interface DraftPlace {
  before?: string;
  after?: string;
}

/**
 * The default definitions while they are built (`definitions/defaults.ts`): the skeleton (`login`:
 * `identify` → `done` with the `sign_up` switch; `register`: `create_user` → `done`), then each
 * method's `defaults` fragment in registry order. A fragment adds what its method owns and may
 * extend what an earlier one added; the documents it gets back are the drafts themselves.
 */
export interface DefinitionDraft {
  /** the identifier field the default steps ask for (`email` when the schema has it) */
  readonly identifier: string;
  /**
   * The definition of that name. `create` makes it when absent (active, for the schema, no steps
   * yet), listed after the others, or, `alternative`, after every definition a project uses by
   * default (one an operator selects per audience instead, such as `login_code`); without it an
   * absent definition is an error.
   */
  definition(name: string, create?: { purposes: Record<string, string>; alternative?: boolean }): FlowDefinitionDoc;
  /** the step of that name (an error when the definition has none: a fragment ran before the one that adds it) */
  step(definition: FlowDefinitionDoc, name: string): FlowStepDef;
  hasStep(definition: FlowDefinitionDoc, name: string): boolean;
  /** adds `step` to the definition (by default before its first `complete` step) and returns it */
  addStep(definition: FlowDefinitionDoc, step: FlowStepDef, place?: DraftPlace): FlowStepDef;
  /** adds an action to a step, with its transition when it has one, both at `place` */
  action(step: FlowStepDef, action: FlowAction, transition?: FlowTransition, place?: DraftPlace): void;
  /** adds a transition (an outcome's) to a step at `place` */
  transition(step: FlowStepDef, trigger: string, transition: FlowTransition, place?: DraftPlace): void;
}

/** A method's part of the default definitions (`AuthMethod.defaults`). */
export type DefaultsFragment = (draft: DefinitionDraft, schema: SchemaView) => void;
