import { ALL_PROVIDERS } from '../../../sso/service.js';
import type { DefaultsFragment, DraftPlace } from '../defaults-draft.js';
import type { FlowStepDef } from '../../definitions/types.js';
import { PASSWORD_FIELD } from '../password/index.js';

/**
 * Upstream SSO where the schema enables it (DESIGN §4.14): every provider the project enables (`*`)
 * beside the identifier and on registration; nothing shows until one is added. An e-mail that
 * belongs to an account is linked after its password (`link_account`).
 */
export const ssoDefaults: DefaultsFragment = (draft, schema) => {
  if (!schema.methods.has('sso')) return;
  // A user with TOTP enrolled is asked for it after an upstream sign-in too.
  const totp = schema.methods.has('totp');
  const link = schema.methods.has('password');
  const steps = (): FlowStepDef[] => [
    // Passed unseen after an upstream sign-in: a user with TOTP enrolled is asked for it (the
    // method's follow-up), as after a password. Not on the identifier step itself, where the same
    // follow-up would skip the password.
    ...(totp ? [{ name: 'after_sso', transitions: { second_factor: { target: 'totp' }, next: { target: 'done' } } }] : []),
    ...(link
      ? [
          {
            name: 'link_account',
            fields: [PASSWORD_FIELD],
            actions: [{ name: 'confirm', kind: 'submit', primary: true, text_key: 'action.confirm' }],
            on_success: 'link_sso',
            transitions: { confirm: { target: 'done' }, ...(totp ? { second_factor: { target: 'totp' } } : {}) },
          },
        ]
      : []),
  ];
  // login: at its end, before `done`; register: right after its own step, before the second factor's.
  for (const [name, stepName, rightAfter] of [['login', 'identify', false], ['register', 'register', true]] as const) {
    const definition = draft.definition(name);
    const step = draft.step(definition, stepName);
    draft.action(step, { name: 'sso', kind: 'sso', primary: false, text_key: 'action.sso' });
    step.sso_providers = [ALL_PROVIDERS];
    draft.transition(step, 'callback', { target: totp ? 'after_sso' : 'done' });
    if (link) draft.transition(step, 'link_account', { target: 'link_account' });
    const place: DraftPlace | undefined = rightAfter ? { before: definition.steps[definition.steps.indexOf(step) + 1]?.name } : undefined;
    for (const added of steps()) draft.addStep(definition, added, place);
  }
};
