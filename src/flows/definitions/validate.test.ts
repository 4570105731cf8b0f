import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { schemaView } from './schema-view.js';
import type { FlowDefinitionDoc } from './types.js';
import { assertValidDefinition, definitionIssues } from './validate.js';

const schemaDoc = JSON.parse(readFileSync(new URL('./fixtures/user-schema.json', import.meta.url), 'utf8'));
const example = JSON.parse(readFileSync(new URL('./fixtures/login-register-definition.json', import.meta.url), 'utf8'));
const schema = schemaView('sch_example0000000000', schemaDoc.$id, schemaDoc);
const clone = (): FlowDefinitionDoc => structuredClone(example.flow_definition);

describe('flow definition validation', () => {
  it('accepts the shared example definition', () => {
    expect(definitionIssues(clone(), schema)).toEqual([]);
  });

  it('reads nested fields, identifiers and enabled methods from the schema', () => {
    expect([...schema.fields.keys()]).toEqual(['email', 'name.given', 'name.family', 'nickname', 'avatar']);
    expect(schema.identifiers).toEqual(['email']);
    expect([...schema.methods].sort()).toEqual(['passkey', 'password']);
  });

  const cases: Array<[string, (def: FlowDefinitionDoc) => void, { step?: string; field: string }]> = [
    ['duplicate step names', (d) => d.steps.push({ name: 'password', fields: [], actions: [], transitions: { next: { target: 'done' } } }), { step: 'password', field: 'name' }],
    ['unknown purpose entry', (d) => (d.purposes.recovery = 'nowhere'), { field: 'purposes.recovery' }],
    ['unknown transition target', (d) => (d.steps[1].transitions!.sign_in.target = 'nowhere'), { step: 'password', field: 'transitions.sign_in.target' }],
    ['complete step with fields', (d) => (d.steps[4].fields = ['email']), { step: 'done', field: 'fields' }],
    ['complete step with actions', (d) => (d.steps[4].actions = [{ name: 'x', kind: 'submit' }]), { step: 'done', field: 'actions' }],
    ['bad complete behavior', (d) => (d.steps[4].complete = 'explode'), { step: 'done', field: 'complete' }],
    ['field not in the schema', (d) => d.steps[0].fields!.push('shoe_size'), { step: 'identify', field: 'fields[1]' }],
    ['disabled method', (d) => d.steps[1].fields!.push('x-auth-methods#otp'), { step: 'password', field: 'fields[1]' }],
    ['unreachable step', (d) => d.steps.push({ name: 'island', complete: 'show' }), { step: 'island', field: 'name' }],
    ['action without transition', (d) => delete d.steps[1].transitions!.sign_in, { step: 'password', field: 'actions[0]' }],
    ['unknown trigger', (d) => (d.steps[1].transitions!.dance = { target: 'done' }), { step: 'password', field: 'transitions.dance' }],
    ['unknown transition action', (d) => (d.steps[0].transitions!.sign_up = { target: 'register', action: 'teleport' }), { step: 'identify', field: 'transitions.sign_up.action' }],
    ['unknown on_success', (d) => (d.steps[2].on_success = 'launch_rocket'), { step: 'register', field: 'on_success' }],
    ['create_user without a required property', (d) => (d.steps[2].fields = ['name.given', 'x-auth-methods#password']), { step: 'register', field: 'fields' }],
    ['invisible step without next', (d) => { d.steps.push({ name: 'hidden' }); d.steps[3].transitions!.skip = { target: 'hidden' }; }, { step: 'hidden', field: 'transitions' }],
    ['unknown gate', (d) => (d.steps[0].gates = { moat: {} }), { step: 'identify', field: 'gates.moat' }],
  ];

  for (const [name, mutate, expected] of cases) {
    it(`names the step and field: ${name}`, () => {
      const def = clone();
      mutate(def);
      const issues = definitionIssues(def, schema);
      expect(issues).toContainEqual(expect.objectContaining(expected));
      try {
        assertValidDefinition(def, schema);
        expect.unreachable('should have thrown');
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('flowdef.invalid');
        expect((error as AppError).status).toBe(400);
        expect((error as AppError).details.errors).toEqual(issues);
      }
    });
  }

  it('allows switch and pivot targets outside the definition', () => {
    const def = clone();
    def.steps[0].transitions!.sign_up = { target: 'register', action: 'switch' };
    def.steps[0].transitions!.user_not_found = { target: 'recovery', action: 'pivot' };
    def.steps[3].transitions!.skip = { target: 'done' };
    // register is now reachable only through have_account? No: nothing targets it inside the definition except the purpose.
    expect(definitionIssues(def, schema)).toEqual([]);
  });
});
