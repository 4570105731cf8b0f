import type { Translate } from './i18n.js';
import { esc } from './html.js';

/**
 * The markup of the device verification page (/ui/device): the code form and the consent. Plain
 * forms, no script; every value passes through `esc`.
 */

/** The form a person types the device's code into (prefilled from `verification_uri_complete`). */
export function codeFormMarkup(t: Translate, action: string, value: string, wrong: boolean): string {
  const errorId = 'f-user-code-error';
  const describedBy = wrong ? `f-user-code-hint ${errorId}` : 'f-user-code-hint';
  return (
    `<h1 id="step-title">${esc(t('ui.device.title'))}</h1>` +
    `<p class="description">${esc(t('ui.device.description'))}</p>` +
    (wrong ? `<div class="alert" role="alert"><p>${esc(t('ui.device.wrong_code'))}</p></div>` : '') +
    `<form method="post" action="${esc(action)}" aria-labelledby="step-title">` +
    `<div class="field"><label for="f-user-code">${esc(t('ui.device.code'))}</label>` +
    `<input id="f-user-code" name="user_code" type="text" required autofocus autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="20"` +
    ` aria-describedby="${describedBy}"${wrong ? ' aria-invalid="true"' : ''} value="${esc(value)}">` +
    `<p class="hint" id="f-user-code-hint">${esc(t('ui.device.code_hint'))}</p>` +
    (wrong ? `<p class="field-error" id="${errorId}">${esc(t('ui.device.wrong_code'))}</p>` : '') +
    `</div>` +
    `<div class="actions"><button type="submit" class="btn primary">${esc(t('ui.device.continue'))}</button></div>` +
    `</form>`
  );
}

export interface ConsentView {
  requestId: string;
  clientName: string;
  requestedAt: Date;
  scopes: string[];
  account: string;
  lang: string;
  /** where approve and deny post */
  action: string;
  /** the sign-in with another account */
  otherAccount: string;
}

/** "2025-05-01 14:03 UTC" in the page's language: the time the device asked, so the person can match it. */
function requestedAt(date: Date, lang: string): string {
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC';
}

/** What each scope gives the device, in words; an unknown scope by its name. */
function scopeText(t: Translate, scope: string): string {
  const key = `ui.device.scope.${scope}`;
  const text = t(key);
  return text === scope.replace(/_/g, ' ') || text === key.split('.').pop() ? scope : text;
}

/**
 * The consent (RFC 8628 §5.4 "remote phishing"): says plainly that a device, not this browser, is
 * signed in, names the client, the time its code was requested, what it asks for and the account.
 */
export function consentMarkup(t: Translate, view: ConsentView): string {
  const scopes = view.scopes.map((scope) => `<li>${esc(scopeText(t, scope))}</li>`).join('');
  return (
    `<h1 id="step-title">${esc(t('ui.device.confirm.title'))}</h1>` +
    `<p class="warning" role="note">${esc(t('ui.device.confirm.warning'))}</p>` +
    `<dl class="device-request">` +
    `<dt>${esc(t('ui.device.confirm.client'))}</dt><dd><strong>${esc(view.clientName)}</strong></dd>` +
    `<dt>${esc(t('ui.device.confirm.requested'))}</dt><dd><time datetime="${esc(view.requestedAt.toISOString())}">${esc(requestedAt(view.requestedAt, view.lang))}</time></dd>` +
    `<dt>${esc(t('ui.device.confirm.access'))}</dt><dd><ul>${scopes}</ul></dd>` +
    `<dt>${esc(t('ui.device.confirm.account'))}</dt><dd>${esc(view.account)} <a href="${esc(view.otherAccount)}">${esc(t('ui.device.confirm.other_account'))}</a></dd>` +
    `</dl>` +
    `<form method="post" action="${esc(view.action)}" aria-labelledby="step-title">` +
    `<input type="hidden" name="request" value="${esc(view.requestId)}">` +
    `<div class="actions">` +
    `<button type="submit" name="decision" value="approve" class="btn primary">${esc(t('ui.device.approve'))}</button>` +
    `<button type="submit" name="decision" value="deny" class="btn secondary">${esc(t('ui.device.deny'))}</button>` +
    `</div></form>`
  );
}
