import { AppError } from '../../core/errors.js';
import type { SchemaView } from './schema-view.js';
import type { AuthMethod } from '../methods/declaration.js';
import { ACTION_KIND_OWNERS, FIELD_OWNERS, knownActionKinds, knownHooks, METHODS, methodOutcomes } from '../methods/registry.js';
import { CROSS_FLOW_ACTIONS, isCompleteStep, isInvisibleStep, METHOD_FIELD_PREFIX, OUTCOME_TRIGGERS, type FlowDefinitionDoc } from './types.js';

export interface DefinitionIssue {
  /** the step the problem is in (absent for definition-level problems) */
  step?: string;
  /** the member of the step or definition that is wrong */
  field: string;
  message: string;
}

const COMPLETE_BEHAVIORS = ['redirect', 'show'];

/**
 * The step-graph rules of issue 5: unique step names; every purpose entry and transition target
 * exists; terminal steps carry `complete` and nothing to submit; fields are properties of the
 * user schema or `x-auth-methods#<method>` of an enabled method; every step is reachable.
 */
export function definitionIssues(def: FlowDefinitionDoc, schema: SchemaView): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const enabled = (method: AuthMethod) => !method.needsSchemaKey || schema.methods.has(method.name);
  const steps = new Map<string, (typeof def.steps)[number]>();
  for (const step of def.steps) {
    if (steps.has(step.name)) issues.push({ step: step.name, field: 'name', message: `step name "${step.name}" is used twice` });
    steps.set(step.name, step);
  }
  const purposes = Object.entries(def.purposes);
  if (purposes.length === 0) issues.push({ field: 'purposes', message: 'at least one purpose is required' });
  for (const [purpose, first] of purposes) {
    if (!steps.has(first)) issues.push({ field: `purposes.${purpose}`, message: `purpose "${purpose}" starts at unknown step "${first}"` });
  }

  for (const step of def.steps) {
    const fields = step.fields ?? [];
    const actions = step.actions ?? [];
    const transitions = step.transitions ?? {};
    if (isCompleteStep(step)) {
      if (!COMPLETE_BEHAVIORS.includes(step.complete!)) {
        issues.push({ step: step.name, field: 'complete', message: 'must be "redirect" or "show"' });
      }
      if (fields.length > 0) issues.push({ step: step.name, field: 'fields', message: 'a complete step has nothing to submit' });
      if (actions.length > 0) issues.push({ step: step.name, field: 'actions', message: 'a complete step has nothing to submit' });
      if (Object.keys(transitions).length > 0) issues.push({ step: step.name, field: 'transitions', message: 'a complete step is terminal' });
      if (step.on_success) issues.push({ step: step.name, field: 'on_success', message: 'a complete step runs nothing' });
      continue;
    }
    const seenFields = new Set<string>();
    fields.forEach((field, index) => {
      const where = `fields[${index}]`;
      if (seenFields.has(field)) issues.push({ step: step.name, field: where, message: `field "${field}" is listed twice` });
      seenFields.add(field);
      const owner = FIELD_OWNERS.get(field);
      if (owner) {
        if (!enabled(owner.method)) issues.push({ step: step.name, field: where, message: `method "${owner.method.name}" is not enabled in the user schema` });
      } else if (field.startsWith(METHOD_FIELD_PREFIX)) {
        const method = field.slice(METHOD_FIELD_PREFIX.length);
        const reason = schema.methods.has(method) ? 'cannot be used in a field' : 'is not enabled in the user schema';
        issues.push({ step: step.name, field: where, message: `method "${method}" ${reason}` });
      } else if (!schema.fields.has(field)) {
        issues.push({ step: step.name, field: where, message: `"${field}" is not a property of the user schema` });
      }
    });
    const actionNames = new Set<string>();
    actions.forEach((action, index) => {
      if (actionNames.has(action.name)) issues.push({ step: step.name, field: `actions[${index}]`, message: `action "${action.name}" is listed twice` });
      actionNames.add(action.name);
      const owner = ACTION_KIND_OWNERS.get(action.kind);
      if (!owner && !knownActionKinds().includes(action.kind)) {
        issues.push({ step: step.name, field: `actions[${index}].kind`, message: `unknown action kind "${action.kind}" (known: ${knownActionKinds().join(', ')})` });
      } else if (owner && !enabled(owner)) {
        issues.push({ step: step.name, field: `actions[${index}].kind`, message: `method "${owner.name}" is not enabled in the user schema` });
      }
      if (!transitions[action.name] && (owner?.actionNeedsTransition?.(step, action) ?? true)) {
        issues.push({ step: step.name, field: `actions[${index}]`, message: `action "${action.name}" has no transition` });
      }
    });
    for (const method of METHODS) {
      for (const issue of method.stepIssues?.(step) ?? []) issues.push({ step: step.name, ...issue });
    }
    if (step.on_success !== undefined && !knownHooks().includes(step.on_success)) {
      issues.push({ step: step.name, field: 'on_success', message: `unknown on_success "${step.on_success}" (known: ${knownHooks().join(', ')})` });
    }
    if (step.on_success === 'create_user') {
      for (const required of [...schema.fields.values()].filter((f) => f.required)) {
        if (!fields.includes(required.path)) {
          issues.push({ step: step.name, field: 'fields', message: `create_user needs the required property "${required.path}"` });
        }
      }
    }
    if (step.gates) {
      for (const gate of Object.keys(step.gates)) {
        if (gate !== 'captcha') issues.push({ step: step.name, field: `gates.${gate}`, message: `unknown gate "${gate}"` });
      }
    }
    if (isInvisibleStep(step) && !transitions.next) {
      issues.push({ step: step.name, field: 'transitions', message: 'a step without fields and actions needs a "next" transition' });
    }
    for (const [trigger, transition] of Object.entries(transitions)) {
      const where = `transitions.${trigger}`;
      if (!actionNames.has(trigger) && !(OUTCOME_TRIGGERS as readonly string[]).includes(trigger) && !methodOutcomes().includes(trigger)) {
        issues.push({ step: step.name, field: where, message: `trigger "${trigger}" is neither an action of the step nor an outcome` });
      }
      if (transition.action !== undefined) {
        if (!(CROSS_FLOW_ACTIONS as readonly string[]).includes(transition.action)) {
          issues.push({ step: step.name, field: `${where}.action`, message: 'must be "switch" or "pivot"' });
        }
      } else if (!steps.has(transition.target)) {
        issues.push({ step: step.name, field: `${where}.target`, message: `unknown step "${transition.target}"` });
      }
    }
  }

  const reachable = new Set<string>();
  const queue = purposes.map(([, first]) => first).filter((name) => steps.has(name));
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (reachable.has(name)) continue;
    reachable.add(name);
    for (const transition of Object.values(steps.get(name)?.transitions ?? {})) {
      if (transition.action === undefined && steps.has(transition.target)) queue.push(transition.target);
    }
  }
  for (const step of def.steps) {
    if (!reachable.has(step.name)) issues.push({ step: step.name, field: 'name', message: 'the step is not reachable from any purpose' });
  }
  return issues;
}

export function invalidDefinition(issues: DefinitionIssue[]): AppError {
  const first = issues[0];
  const where = first.step ? `step "${first.step}", ${first.field}` : first.field;
  return new AppError('flowdef.invalid', `The flow definition is invalid: ${where}: ${first.message}.`, { errors: issues });
}

export function assertValidDefinition(def: FlowDefinitionDoc, schema: SchemaView): void {
  const issues = definitionIssues(def, schema);
  if (issues.length > 0) throw invalidDefinition(issues);
}
