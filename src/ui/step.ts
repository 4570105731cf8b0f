import type { MarkupKit, MethodMarkup } from '../flows/methods/markup.js';
import { markupOfActionKind, methodMarkups } from '../flows/methods/registry.js';
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

function genericAutocomplete(field: StepField, step: StepView): string | undefined {
  const creating = NEW_PASSWORD_STEPS.test(step.name);
  switch (field.type) {
    case 'email':
      // The account's identifier: password managers and passkey autofill look for `username`.
      return creating ? 'email' : 'username';
    case 'password':
      return creating ? 'new-password' : 'current-password';
    case 'code':
      return 'one-time-code';
    default:
      if (field.name === 'name.given') return 'given-name';
      if (field.name === 'name.family') return 'family-name';
      return undefined;
  }
}

/** What one rendering asks of the methods: their hooks, once, and the kit they draw with. */
interface Rendering {
  page: StepPage;
  step: StepView & StepExtras;
  markups: readonly MethodMarkup[];
  kit: MarkupKit;
}

const autocomplete = (field: StepField, { step, markups }: Rendering): string | undefined =>
  markups.reduce((value, markup) => (markup.autocomplete ? markup.autocomplete(field, step, value) : value), genericAutocomplete(field, step));

const INPUT_TYPES: Record<string, string> = { email: 'email', password: 'password', number: 'number', url: 'url', checkbox: 'checkbox', code: 'text', text: 'text' };

function fieldMarkup(field: StepField, rendering: Rendering, focus: boolean): string {
  const { page } = rendering;
  const id = fieldId(field.name);
  const errorKey = page.errors[field.name];
  const errorId = `${id}-error`;
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
    autocomplete: autocomplete(field, rendering),
    inputmode: field.type === 'code' ? 'numeric' : undefined,
    maxlength: field.type === 'code' ? 12 : field.type === 'password' ? 4096 : 1024,
    spellcheck: field.type === 'email' || field.type === 'password' || field.type === 'code' ? 'false' : undefined,
    autocapitalize: field.type === 'email' || field.type === 'code' ? 'none' : undefined,
  });
  return `<div class="field"><label for="${esc(id)}">${label}</label><input${input}>${error}</div>`;
}

/** A field a method shows its own way, else the generic input. */
function anyFieldMarkup(field: StepField, rendering: Rendering, focus: boolean): string {
  const { page, step, kit } = rendering;
  const state = { errorKey: page.errors[field.name], value: page.values[field.name], focus };
  for (const markup of rendering.markups) {
    const own = markup.field?.(field, step, state, kit);
    if (own !== undefined) return own;
  }
  return fieldMarkup(field, rendering, focus);
}

function buttonMarkup(action: StepAction, t: Translate): string {
  const own = markupOfActionKind(action.kind)?.button?.(action);
  const data = Object.fromEntries(Object.entries(own?.data ?? {}).map(([name, value]) => [`data-${name}`, value]));
  const cls = action.primary ? 'btn primary' : action.kind === 'navigate' ? 'btn link' : 'btn secondary';
  // A navigate action carries no fields: its own name tells the server to leave them out.
  return `<button${attrs({
    type: 'submit',
    name: action.kind === 'navigate' ? 'navigate' : 'action',
    value: action.name,
    class: cls,
    formnovalidate: action.kind === 'navigate' || own?.noValidate === true,
    ...data,
  })}>${esc(t(action.text_key))}</button>`;
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

function extrasMarkup({ step, markups, kit }: Rendering): string {
  const html = typeof step.warning === 'string' ? `<p class="warning" role="status">${esc(kit.t(step.warning))}</p>` : '';
  return html + markups.map((markup) => markup.extras?.(step, kit) ?? '').join('');
}

/** The step's buttons; a method drawing its actions as a group of their own (`actionGroup`) gets them out of the common one. */
function actionsMarkup({ step, markups, kit }: Rendering): string {
  const own = step.actions.filter((a) => markupOfActionKind(a.kind)?.actionGroup === undefined);
  const ordered = [...own.filter((a) => a.primary), ...own.filter((a) => !a.primary)];
  let html = ordered.length > 0 ? `<div class="actions">${ordered.map((a) => buttonMarkup(a, kit.t)).join('')}</div>` : '';
  for (const markup of markups) html += markup.actionGroup?.(step, kit, html !== '') ?? '';
  return html;
}

/** The markup of one step: title, errors, the form with its fields, gate and actions. */
export function stepMarkup(page: StepPage): string {
  const step = page.body.step as StepView & StepExtras;
  const t = page.t;
  const rendering: Rendering = { page, step, markups: methodMarkups(), kit: { esc, attrs, jsonBlock, fieldId, t } };
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
  html += extrasMarkup(rendering);
  html += `<form method="post" action="${esc(page.action)}" aria-labelledby="step-title" data-step="${esc(step.name)}">`;
  html += step.fields.map((field) => anyFieldMarkup(field, rendering, field.name === focusName)).join('');
  html += captchaMarkup(step, page, focusName === 'captcha' || (focusName === undefined && !!step.gates?.captcha));
  html += rendering.markups.map((markup) => markup.formEnd?.(step, rendering.kit) ?? '').join('');
  html += actionsMarkup(rendering);
  html += `</form>`;
  return html;
}
