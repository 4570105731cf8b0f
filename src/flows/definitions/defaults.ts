import type { SchemaView } from './schema-view.js';
import type { DefinitionDraft, DraftPlace } from '../methods/defaults-draft.js';
import { applyMethodDefaults } from '../methods/registry.js';
import type { FlowAction, FlowDefinitionDoc, FlowStepDef, FlowTransition } from './types.js';

/**
 * The definitions every project starts with (DESIGN §4.5), built for its default user schema. The
 * skeleton here names no method: `login` (identifier → complete, with the `sign_up` switch) and
 * `register` (the schema's fields → create_user → complete). Each method's `defaults` fragment
 * then adds its part in registry order (`methods/<method>/defaults.ts`): the password step and
 * field, `recovery` by mail, passkeys, e-mail codes (`login_code`), TOTP and recovery codes as the
 * second factor, SSO, and `settings`. login ↔ register switch.
 */
export function defaultDefinitions(schema: SchemaView): FlowDefinitionDoc[] {
  const identifier = schema.identifiers.includes('email') ? 'email' : schema.identifiers[0] ?? 'email';
  const nameFields = ['name.given', 'name.family', 'name'].filter((path) => schema.fields.has(path));
  const required = [...schema.fields.values()].filter((f) => f.required && f.path !== identifier).map((f) => f.path);
  const registerFields = [identifier, ...new Set([...required, ...nameFields])];
  const user_schema = schema.uri;
  const draft = new Draft(identifier, user_schema, [
    {
      name: 'login',
      status: 'active',
      user_schema,
      purposes: { login: 'identify' },
      steps: [
        {
          name: 'identify',
          fields: [identifier],
          actions: [{ name: 'sign_up', kind: 'navigate', primary: false, text_key: 'action.sign_up' }],
          transitions: { sign_up: { target: 'register', action: 'switch' } },
        },
        { name: 'done', complete: 'redirect' },
      ],
    },
    {
      name: 'register',
      status: 'active',
      user_schema,
      purposes: { register: 'register' },
      steps: [
        {
          name: 'register',
          fields: registerFields,
          actions: [
            { name: 'create', kind: 'submit', primary: true, text_key: 'action.create_account' },
            { name: 'sign_in', kind: 'navigate', primary: false, text_key: 'action.sign_in_instead' },
          ],
          on_success: 'create_user',
          transitions: { create: { target: 'done' }, sign_in: { target: 'login', action: 'switch' } },
        },
        { name: 'done', complete: 'redirect' },
      ],
    },
  ]);
  applyMethodDefaults(draft, schema);
  return draft.result();
}

/** Where `place` puts an entry among `names`; `fallback` when it names none of them. */
function indexOf(names: readonly string[], place: DraftPlace | undefined, fallback: number): number {
  const before = place?.before === undefined ? -1 : names.indexOf(place.before);
  if (before >= 0) return before;
  const after = place?.after === undefined ? -1 : names.indexOf(place.after);
  return after >= 0 ? after + 1 : fallback;
}

/** `record` with `key` at `place` (the key order is what a project's stored definition shows). */
function inserted<T>(record: Record<string, T>, key: string, value: T, place: DraftPlace | undefined): Record<string, T> {
  const entries = Object.entries(record).filter(([name]) => name !== key);
  entries.splice(indexOf(entries.map(([name]) => name), place, entries.length), 0, [key, value]);
  return Object.fromEntries(entries);
}

/** The definitions under construction: the methods' fragments edit the documents in place. */
class Draft implements DefinitionDraft {
  private readonly alternatives: FlowDefinitionDoc[] = [];

  constructor(
    readonly identifier: string,
    private readonly userSchema: string,
    private readonly main: FlowDefinitionDoc[],
  ) {}

  definition(name: string, create?: { purposes: Record<string, string>; alternative?: boolean }): FlowDefinitionDoc {
    const found = [...this.main, ...this.alternatives].find((definition) => definition.name === name);
    if (found) return found;
    if (!create) throw new Error(`The default definitions have no "${name}" (yet): a fragment runs after the one that adds it.`);
    const definition: FlowDefinitionDoc = { name, status: 'active', user_schema: this.userSchema, purposes: create.purposes, steps: [] };
    (create.alternative ? this.alternatives : this.main).push(definition);
    return definition;
  }

  step(definition: FlowDefinitionDoc, name: string): FlowStepDef {
    const step = definition.steps.find((candidate) => candidate.name === name);
    if (!step) throw new Error(`The default definition "${definition.name}" has no step "${name}" (yet).`);
    return step;
  }

  hasStep(definition: FlowDefinitionDoc, name: string): boolean {
    return definition.steps.some((step) => step.name === name);
  }

  addStep(definition: FlowDefinitionDoc, step: FlowStepDef, place?: DraftPlace): FlowStepDef {
    const complete = definition.steps.findIndex((candidate) => candidate.complete !== undefined);
    const names = definition.steps.map((candidate) => candidate.name);
    definition.steps.splice(indexOf(names, place, complete >= 0 ? complete : names.length), 0, step);
    return step;
  }

  action(step: FlowStepDef, action: FlowAction, transition?: FlowTransition, place?: DraftPlace): void {
    const actions = (step.actions ??= []);
    actions.splice(indexOf(actions.map((candidate) => candidate.name), place, actions.length), 0, action);
    if (transition) this.transition(step, action.name, transition, place);
  }

  transition(step: FlowStepDef, trigger: string, transition: FlowTransition, place?: DraftPlace): void {
    step.transitions = inserted(step.transitions ?? {}, trigger, transition, place);
  }

  result(): FlowDefinitionDoc[] {
    return [...this.main, ...this.alternatives];
  }
}
