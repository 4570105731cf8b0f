import type { ChallengeView, FlowResponse, StepAction, StepField, StepView } from '../flows/view.js';
import { attrs, esc, fieldId, jsonBlock } from './html.js';
import type { Translate } from './i18n.js';

/** What the runtime may add to a step (DESIGN §4.10, §4.12, §4.14); read defensively. */
export interface StepExtras {
  challenge?: ChallengeView;
  error?: string;
  sso_providers?: Array<{ id: string; name: string; template?: string }>;
  totp?: { secret: string; otpauth_uri: string; qr_svg: string };
  recovery_codes?: string[];
  warning?: string;
  credentials?: Array<{ id: string; method: string; name: string | null; created_at: string }>;
}

export interface StepPage {
  body: FlowResponse;
  /** field name -> error text key (from `details.fields` of a rejected submit) */
  errors: Record<string, string>;
  /** a step-wide error text key */
  error?: string;
  /** values typed before a rejected submit (never secrets) */
  values: Record<string, string>;
  /** where the form posts */
  action: string;
  t: Translate;
  /** a text key: what just happened, shown under the title (`ui.notice.password_changed`) */
  notice?: string;
}

const NEW_PASSWORD_STEPS = /register|new|set|change|settings/;

function autocomplete(field: StepField, step: StepView & StepExtras, conditional: boolean): string | undefined {
  const creating = NEW_PASSWORD_STEPS.test(step.name);
  switch (field.type) {
    case 'email':
      // The account's identifier: password managers and passkey autofill look for `username`.
      return creating ? 'email' : `username${conditional ? ' webauthn' : ''}`;
    case 'password':
      return creating ? 'new-password' : 'current-password';
    case 'code':
      return 'one-time-code';
    default:
      if (field.name === 'name.given') return 'given-name';
      if (field.name === 'name.family') return 'family-name';
      return conditional && field.type === 'text' ? 'username webauthn' : undefined;
  }
}

const INPUT_TYPES: Record<string, string> = { email: 'email', password: 'password', number: 'number', url: 'url', checkbox: 'checkbox', code: 'text', text: 'text' };

function fieldMarkup(field: StepField, page: StepPage, step: StepView & StepExtras, focus: boolean): string {
  const id = fieldId(field.name);
  const errorKey = page.errors[field.name];
  const errorId = `${id}-error`;
  const conditional = step.challenge?.mediation === 'conditional';
  const common = {
    id,
    name: `f.${field.name}`,
    required: field.required,
    'aria-invalid': errorKey ? 'true' : undefined,
    'aria-describedby': errorKey ? errorId : undefined,
    autofocus: focus,
  };
  const error = errorKey ? `<p class="field-error" id="${esc(errorId)}">${esc(page.t(errorKey))}</p>` : '';
  const label = esc(page.t(field.text_key));
  if (field.type === 'checkbox') {
    const checked = page.values[field.name] === 'true';
    return `<div class="field check"><input${attrs({ ...common, type: 'checkbox', value: 'true', checked })}><label for="${esc(id)}">${label}</label>${error}</div>`;
  }
  const input = attrs({
    ...common,
    type: INPUT_TYPES[field.type] ?? 'text',
    value: field.type === 'password' ? undefined : page.values[field.name],
    autocomplete: autocomplete(field, step, conditional),
    inputmode: field.type === 'code' ? 'numeric' : undefined,
    maxlength: field.type === 'code' ? 12 : field.type === 'password' ? 4096 : 1024,
    spellcheck: field.type === 'email' || field.type === 'password' || field.type === 'code' ? 'false' : undefined,
    autocapitalize: field.type === 'email' || field.type === 'code' ? 'none' : undefined,
  });
  return `<div class="field"><label for="${esc(id)}">${label}</label><input${input}>${error}</div>`;
}

/** The settings step's `credential_id`: a choice among the user's own credentials (radio buttons), not an id to type. */
function credentialChoice(field: StepField, page: StepPage, step: StepView & StepExtras, focus: boolean): string | undefined {
  const credentials = step.credentials;
  if (field.name !== 'credential_id' || !Array.isArray(credentials) || credentials.length === 0) return undefined;
  const errorKey = page.errors[field.name];
  const id = fieldId(field.name);
  const errorId = `${id}-error`;
  const options = credentials.map((credential, index) => {
    const optionId = `${id}-${index}`;
    const method = page.t(`ui.credential.${credential.method}`);
    const label = credential.name ? `${method}: ${credential.name}` : method;
    const since = credential.created_at.slice(0, 10);
    return (
      `<div class="choice"><input${attrs({ id: optionId, type: 'radio', name: `f.${field.name}`, value: credential.id, required: field.required, checked: page.values[field.name] === credential.id, autofocus: focus && index === 0, 'aria-describedby': errorKey ? errorId : undefined })}>` +
      `<label for="${esc(optionId)}">${esc(label)} <span class="since">${esc(page.t('ui.credential.since'))} <time datetime="${esc(credential.created_at)}">${esc(since)}</time></span></label></div>`
    );
  });
  const error = errorKey ? `<p class="field-error" id="${esc(errorId)}">${esc(page.t(errorKey))}</p>` : '';
  // The first radio carries the field's id, so the error summary's link lands on the group.
  return `<fieldset class="field choices" id="${esc(id)}"${errorKey ? ' aria-invalid="true"' : ''}><legend>${esc(page.t(field.text_key))}</legend>${options.join('')}${error}</fieldset>`;
}

function buttonMarkup(action: StepAction, t: Translate): string {
  const passkey = action.kind === 'passkey' || action.kind === 'passkey_register';
  const cls = action.primary ? 'btn primary' : action.kind === 'navigate' ? 'btn link' : 'btn secondary';
  // A navigate action carries no fields: its own name tells the server to leave them out.
  return `<button${attrs({
    type: 'submit',
    name: action.kind === 'navigate' ? 'navigate' : 'action',
    value: action.name,
    class: cls,
    formnovalidate: action.kind === 'navigate' || passkey,
    'data-passkey': passkey ? action.kind : undefined,
  })}>${esc(t(action.text_key))}</button>`;
}

/**
 * One "Continue with …" button per provider of each `sso` action. The button's value names the
 * action and the provider (`<action>:<provider>`); it needs no field, so the browser's own
 * validation is off for it. Works without JavaScript: the answer is a redirect upstream.
 */
function ssoMarkup(step: StepView & StepExtras, t: Translate, afterOthers: boolean): string {
  const providers = Array.isArray(step.sso_providers) ? step.sso_providers : [];
  const buttons = step.actions
    .filter((action) => action.kind === 'sso')
    .flatMap((action) =>
      providers.map((provider) =>
        `<button${attrs({ type: 'submit', name: 'sso', value: `${action.name}:${provider.id}`, class: 'btn sso', formnovalidate: true, 'data-template': provider.template })}>${esc(ssoLabel(action, provider.name, t))}</button>`,
      ),
    );
  if (buttons.length === 0) return '';
  return `${afterOthers ? `<p class="divider"><span>${esc(t('ui.or'))}</span></p>` : ''}<div class="actions sso">${buttons.join('')}</div>`;
}

/** The action's own text when it names the provider (`Connect {name}`), else "Continue with <name>". */
function ssoLabel(action: StepAction, name: string, t: Translate): string {
  const own = t(action.text_key, { name });
  return own.includes(name) ? own : t('ui.sso_with', { name });
}

function captchaMarkup(step: StepView, page: StepPage, focus: boolean): string {
  const gate = step.gates?.captcha;
  if (!gate) return '';
  const errorKey = page.errors.captcha;
  const hintId = 'f-captcha-hint';
  const describedBy = errorKey ? `${hintId} f-captcha-error` : hintId;
  return (
    `<div class="field captcha" data-captcha>` +
    `<label for="f-captcha">${esc(page.t('ui.captcha'))}</label>` +
    `<input${attrs({ id: 'f-captcha', name: 'captcha', type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': describedBy, 'aria-invalid': errorKey ? 'true' : undefined, autofocus: focus, maxlength: 4096 })}>` +
    `<p class="hint" id="${hintId}" data-solving="${esc(page.t('ui.captcha_solving'))}" data-done="${esc(page.t('ui.captcha_done'))}" aria-live="polite">${esc(page.t('ui.captcha_hint'))}</p>` +
    (errorKey ? `<p class="field-error" id="f-captcha-error">${esc(page.t(errorKey))}</p>` : '') +
    jsonBlock('gh-captcha', gate.config) +
    `</div>`
  );
}

function extrasMarkup(step: StepView & StepExtras, t: Translate): string {
  let html = typeof step.warning === 'string' ? `<p class="warning" role="status">${esc(t(step.warning))}</p>` : '';
  if (step.totp && typeof step.totp.qr_svg === 'string') {
    const src = `data:image/svg+xml;base64,${Buffer.from(step.totp.qr_svg).toString('base64')}`;
    html += `<figure class="totp"><img${attrs({ src, alt: t('ui.totp_qr'), width: 200, height: 200 })}><figcaption><code>${esc(step.totp.secret)}</code></figcaption></figure>`;
  }
  if (Array.isArray(step.recovery_codes)) {
    html += `<ul class="codes">${step.recovery_codes.map((code) => `<li><code>${esc(code)}</code></li>`).join('')}</ul>`;
  }
  return html;
}

/** The markup of one step: title, errors, the form with its fields, gate and actions. */
export function stepMarkup(page: StepPage): string {
  const step = page.body.step as StepView & StepExtras;
  const t = page.t;
  const fieldErrors = step.fields.filter((f) => page.errors[f.name]);
  const stepError = page.error ?? (typeof step.error === 'string' ? step.error : undefined);
  const firstError = fieldErrors[0]?.name ?? (page.errors.captcha ? 'captcha' : undefined);
  // Focus: the first field in error, else the first field (autofocus works without JavaScript).
  const focusName = firstError ?? step.fields[0]?.name;
  let html = `<h1 id="step-title">${esc(t(step.texts.title_key))}</h1>`;
  const description = t(step.texts.description_key);
  if (description && description !== step.texts.description_key.split('.').pop()) html += `<p class="description">${esc(description)}</p>`;
  if (page.notice) html += `<p class="notice" role="status">${esc(t(page.notice))}</p>`;
  if (stepError || fieldErrors.length > 0) {
    html += `<div class="alert" role="alert">`;
    if (stepError) html += `<p>${esc(t(stepError))}</p>`;
    if (fieldErrors.length > 0) {
      html += `<p>${esc(t('ui.errors_title'))}</p><ul>${fieldErrors.map((f) => `<li><a href="#${esc(fieldId(f.name))}">${esc(t(f.text_key))}: ${esc(t(page.errors[f.name]))}</a></li>`).join('')}</ul>`;
    }
    html += `</div>`;
  }
  html += extrasMarkup(step, t);
  html += `<form method="post" action="${esc(page.action)}" aria-labelledby="step-title" data-step="${esc(step.name)}">`;
  html += step.fields.map((field) => credentialChoice(field, page, step, field.name === focusName) ?? fieldMarkup(field, page, step, field.name === focusName)).join('');
  html += captchaMarkup(step, page, focusName === 'captcha' || (focusName === undefined && !!step.gates?.captcha));
  const challenge = step.challenge;
  if (step.actions.some((a) => a.kind === 'passkey' || a.kind === 'passkey_register') || challenge) {
    html += `<input type="hidden" name="challenge_response" value="">`;
    if (challenge) html += jsonBlock('gh-challenge', challenge);
    if (challenge && challenge.mediation !== 'conditional') html += `<noscript><p class="alert" role="alert">${esc(t('ui.passkey_needs_js'))}</p></noscript>`;
  }
  const own = step.actions.filter((a) => a.kind !== 'sso');
  const ordered = [...own.filter((a) => a.primary), ...own.filter((a) => !a.primary)];
  if (ordered.length > 0) html += `<div class="actions">${ordered.map((a) => buttonMarkup(a, t)).join('')}</div>`;
  html += ssoMarkup(step, t, ordered.length > 0);
  html += `</form>`;
  return html;
}
