import { describe, expect, it } from 'vitest';
import { stepPage as page } from './page-test-kit.js';
import { registerMethod } from '../flows/methods/registry.js';
import { translator } from './i18n.js';
import type { StepView } from '../flows/view.js';

/*
 * A method's markup lives in its folder (`AuthMethod.ui`): a method registered here, with no line
 * in `ui/`, draws its step extension, a field, an autocomplete token, the end of the form and
 * its buttons, each at its place.
 */
type Badged = StepView & { badge?: string };
registerMethod({
  name: 'badge',
  needsSchemaKey: false,
  actionKinds: ['badge_tap'],
  ui: {
    extras: (step, { esc }) => ((step as Badged).badge ? `<p class="badge">${esc((step as Badged).badge)}</p>` : ''),
    field: (field, _step, state, { attrs, fieldId }) => (field.name === 'badge_id' ? `<select${attrs({ id: fieldId(field.name), autofocus: state.focus, 'data-value': state.value, 'data-error': state.errorKey })}></select>` : undefined),
    autocomplete: (field, _step, generic) => (field.name === 'pin' ? 'off' : generic),
    formEnd: (step, { jsonBlock }) => ((step as Badged).badge ? jsonBlock('gh-badge', { badge: true }) : ''),
    button: (action) => ({ noValidate: true, data: { badge: action.name } }),
  },
});
// A method with `actionGroup` draws every action of its kinds itself, after the step's buttons.
registerMethod({
  name: 'wave',
  needsSchemaKey: false,
  actionKinds: ['wave'],
  ui: {
    actionGroup: (step, { attrs, esc, t }, afterOthers) => {
      const waves = step.actions.filter((action) => action.kind === 'wave');
      return waves.length === 0 ? '' : `<div class="waves"${afterOthers ? ' data-after' : ''}>${waves.map((a) => `<button${attrs({ type: 'submit', name: 'action', value: a.name })}>${esc(t(a.text_key))}</button>`).join('')}</div>`;
    },
  },
});

const t = translator('en');


describe('step markup: the methods draw their own parts', () => {
  it("places a registered method's hooks: extension above the form, own field, autocomplete, form end, buttons, own group", () => {
    const html = page(
      {
        badge: '<b>',
        warning: 'warning.recovery_codes_low',
        fields: [
          { name: 'badge_id', type: 'text', text_key: 'field.badge_id', required: true },
          { name: 'pin', type: 'password', text_key: 'field.pin', required: true },
        ],
        actions: [
          { name: 'wave', kind: 'wave', text_key: 'action.wave', primary: true },
          { name: 'tap', kind: 'badge_tap', text_key: 'action.tap', primary: false },
          { name: 'go', kind: 'submit', text_key: 'action.go', primary: true },
        ],
      },
      { values: { badge_id: 'b1' }, errors: { badge_id: 'error.required' } },
    );
    expect(html).toContain(`<p class="warning" role="status">${t('warning.recovery_codes_low')}</p><p class="badge">&lt;b&gt;</p><form `);
    expect(html).toContain('<select id="f-badge_id" autofocus data-value="b1" data-error="error.required"></select>');
    expect(html).toContain('name="f.pin" required type="password" autocomplete="off"');
    expect(html).toContain(
      '<script type="application/json" id="gh-badge">{"badge":true}</script>' +
        '<div class="actions"><button type="submit" name="action" value="go" class="btn primary">go</button><button type="submit" name="action" value="tap" class="btn secondary" formnovalidate data-badge="tap">tap</button></div>' +
        '<div class="waves" data-after><button type="submit" name="action" value="wave">wave</button></div></form>',
    );
  });

  it('keeps the built-in markup: SSO buttons after the others, the settings choice of credentials', () => {
    const providers = [{ id: 'github', name: 'GitHub', template: 'github' }, { id: 'acme', name: 'Acme <SSO>' }] as never; // the second without a template: read defensively
    const sso = page({ actions: [{ name: 'connect', kind: 'sso', text_key: 'action.connect_sso', primary: false }, { name: 'back', kind: 'navigate', text_key: 'action.back', primary: false }], sso_providers: providers });
    expect(sso).toContain(
      '<div class="actions"><button type="submit" name="navigate" value="back" class="btn link" formnovalidate>Back</button></div><p class="divider"><span>or</span></p>' +
        '<div class="actions sso"><button type="submit" name="sso" value="connect:github" class="btn sso" formnovalidate data-template="github">Connect GitHub</button><button type="submit" name="sso" value="connect:acme" class="btn sso" formnovalidate>Connect Acme &lt;SSO&gt;</button></div></form>',
    );
    const alone = page({ actions: [{ name: 'sso', kind: 'sso', text_key: 'action.sso', primary: false }], sso_providers: providers });
    expect(alone).not.toContain('divider');
    const settings = page(
      { name: 'settings_remove', fields: [{ name: 'credential_id', type: 'text', text_key: 'field.credential_id', required: true }], credentials: [{ id: 'c1', method: 'password', name: null, created_at: '2024-01-02T03:04:05.000Z' }, { id: 'c2', method: 'passkey', name: 'Laptop', created_at: '2024-02-03T04:05:06.000Z' }] },
      { values: { credential_id: 'c2' }, errors: { credential_id: 'error.required' } },
    );
    expect(settings).toContain(
      '<fieldset class="field choices" id="f-credential_id" aria-invalid="true"><legend>' +
        `${t('field.credential_id')}</legend><div class="choice"><input id="f-credential_id-0" type="radio" name="f.credential_id" value="c1" required autofocus aria-describedby="f-credential_id-error"><label for="f-credential_id-0">Password <span class="since">added <time datetime="2024-01-02T03:04:05.000Z">2024-01-02</time></span></label></div>` +
        '<div class="choice"><input id="f-credential_id-1" type="radio" name="f.credential_id" value="c2" required checked aria-describedby="f-credential_id-error"><label for="f-credential_id-1">Passkey: Laptop <span class="since">added <time datetime="2024-02-03T04:05:06.000Z">2024-02-03</time></span></label></div>' +
        `<p class="field-error" id="f-credential_id-error">${t('error.required')}</p></fieldset>`,
    );
  });
});
