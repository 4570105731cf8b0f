import { describe, expect, it } from 'vitest';
import { defaultUserSchema } from '../../schemas/default-schema.js';
import type { AuthMethod } from '../methods/declaration.js';
import { registerMethod } from '../methods/registry.js';
import { defaultDefinitions } from './defaults.js';
import { schemaView } from './schema-view.js';

/**
 * A method that is not built in gets into the default definitions through its fragment alone
 * (`AuthMethod.defaults`): no edit of `definitions/defaults.ts`. The places name siblings; an
 * absent one falls back to the end (before `done` for steps).
 */
const PIN_FIELD = 'x-auth-methods#pin_test';

const pinMethod: AuthMethod = {
  name: 'pin_test',
  needsSchemaKey: true,
  defaults(draft, schema) {
    if (!schema.methods.has('pin_test')) return;
    const login = draft.definition('login');
    draft.action(draft.step(login, 'identify'), { name: 'use_pin', kind: 'navigate', primary: false, text_key: 'action.use_pin' }, { target: 'pin' }, { after: 'continue' });
    draft.addStep(login, { name: 'pin', fields: [PIN_FIELD], actions: [{ name: 'verify', kind: 'submit', primary: true }], transitions: { verify: { target: 'done' } } }, { after: 'password' });
    draft.transition(draft.step(login, 'password'), 'pin_required', { target: 'pin' }, { before: 'no_such_trigger' });
    draft.addStep(draft.definition('login_pin', { purposes: { login_pin: 'pin' }, alternative: true }), { name: 'pin', fields: [PIN_FIELD] });
  },
};
registerMethod(pinMethod);

const view = (pin: boolean) => {
  const document = defaultUserSchema() as { 'x-auth-methods': Record<string, { enabled: boolean }> };
  document['x-auth-methods'].pin_test = { enabled: pin };
  return schemaView('sch_pin', 'https://schemas.example/pin.json', document);
};

describe('a method of its own in the default definitions (its fragment only)', () => {
  it('adds its action, step, transition and definition where its places say', () => {
    const [login, ...rest] = defaultDefinitions(view(true));
    const identify = login.steps[0];
    expect(identify.actions?.map((a) => a.name).slice(0, 3)).toEqual(['continue', 'use_pin', 'sign_up']);
    expect(Object.keys(identify.transitions ?? {}).slice(0, 3)).toEqual(['continue', 'use_pin', 'sign_up']);
    expect(login.steps.map((s) => s.name)).toEqual(['identify', 'password', 'pin', 'totp', 'recovery_code', 'after_sso', 'link_account', 'done']);
    expect(Object.keys(login.steps[1].transitions ?? {}).at(-1)).toBe('pin_required');
    expect(rest.map((d) => d.name)).toEqual(['register', 'recovery', 'settings', 'login_pin']);
    expect(rest.at(-1)).toEqual({ name: 'login_pin', status: 'active', user_schema: 'https://schemas.example/pin.json', purposes: { login_pin: 'pin' }, steps: [{ name: 'pin', fields: [PIN_FIELD] }] });
  });

  it('adds nothing where the schema does not enable it', () => {
    const without = schemaView('sch_pin', 'https://schemas.example/pin.json', defaultUserSchema());
    expect(JSON.stringify(defaultDefinitions(view(false)))).toBe(JSON.stringify(defaultDefinitions(without)));
  });
});
