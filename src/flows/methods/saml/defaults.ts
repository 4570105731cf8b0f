import type { DefaultsFragment } from '../defaults-draft.js';

const PASSWORD = 'x-auth-methods#password';

/**
 * SAML providers ride on SSO's steps (DESIGN §4.20: `sso_providers: ["*"]` lists them too). What
 * SAML adds where the schema enables it beside SSO and passwords: `link_saml`, the step where a
 * user proves the existing account before the assertion's identity is linked to it.
 */
export const samlDefaults: DefaultsFragment = (draft, schema) => {
  if (!schema.methods.has('saml') || !schema.methods.has('sso') || !schema.methods.has('password')) return;
  const totp = schema.methods.has('totp');
  for (const [name, stepName] of [['login', 'identify'], ['register', 'register']] as const) {
    const definition = draft.definition(name);
    draft.transition(draft.step(definition, stepName), 'link_saml', { target: 'link_saml' });
    draft.addStep(definition, {
      name: 'link_saml',
      fields: [PASSWORD],
      actions: [{ name: 'confirm', kind: 'submit', primary: true, text_key: 'action.confirm' }],
      on_success: 'link_saml',
      transitions: { confirm: { target: 'done' }, ...(totp ? { second_factor: { target: 'totp' } } : {}) },
    });
  }
};
