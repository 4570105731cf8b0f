import type { FastifyReply } from 'fastify';
import { AppError } from '../core/errors.js';
import { isConnectionError } from '../db/engine.js';
import { DEFAULT_BRANDING, type Branding, type FlowSettingsService } from '../flows/settings/service.js';
import type { FlowResponse } from '../flows/view.js';
import type { ProjectService } from '../projects/service.js';
import { overridesFrom, type Lang } from '../projects/ui-texts.js';
import type { UiAssets } from './assets.js';
import { NOTICES, pageUrl, signInUrl, type Entry } from './entry.js';
import { esc } from './html.js';
import { translator, type Translate } from './i18n.js';
import { contentSecurityPolicy, renderDocument } from './layout.js';
import { stepMarkup } from './step.js';
import { stepForLevel, stepUpNotice } from './step-up-view.js';

/** Everything a page render needs about the request. */
export interface PageContext {
  page: string;
  entry: Entry & { lang: Lang };
  explicitLang: boolean;
  branding: Branding;
  t: Translate;
}

export interface PageContextDeps {
  projects: ProjectService;
  flows: { settings: FlowSettingsService };
}

/** Branding and texts of the project (defaults when there is none or it is unknown). */
export async function pageContext(deps: PageContextDeps, page: string, entry: Entry & { lang: Lang }, explicitLang: boolean): Promise<PageContext> {
  let branding = DEFAULT_BRANDING;
  let overrides = {};
  const project = entry.project_id ? await deps.projects.row(entry.project_id) : undefined;
  if (project) {
    branding = await deps.flows.settings.branding(project.id);
    overrides = overridesFrom(project.settings);
  }
  return { page, entry, explicitLang, branding, t: translator(entry.lang, overrides) };
}

/**
 * The context of an error page when the project's own cannot be had (the database is gone, or
 * the query itself failed): the built-in look and texts, in the language the request asked for.
 */
export function fallbackContext(page: string, entry: Entry & { lang: Lang }, explicitLang: boolean): PageContext {
  return { page, entry, explicitLang, branding: DEFAULT_BRANDING, t: translator(entry.lang) };
}

/** An unreachable database, as a page: 503 and when to come back, like the JSON API (DESIGN §4.6a). */
const UNAVAILABLE = { status: 503, key: 'ui.error.unavailable', restart: false, headers: { 'retry-after': '5' } };

/** Headers of every page: strict CSP, no framing, no referrer, never cached. */
export function pageHeaders(reply: FastifyReply, branding: Branding): FastifyReply {
  return reply
    .header('content-security-policy', contentSecurityPolicy(branding))
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8');
}

function languageLinks(ctx: PageContext): string {
  const links = (['en', 'de'] as const)
    .filter((lang) => lang !== ctx.entry.lang)
    .map((lang) => `<a href="${esc(pageUrl(ctx.page, ctx.entry, { lang }, true))}" lang="${lang}" hreflang="${lang}">${lang === 'en' ? 'English' : 'Deutsch'}</a>`);
  return `<nav class="lang" aria-label="${esc(ctx.t('ui.language'))}">${links.join('')}</nav>`;
}

export async function sendPage(reply: FastifyReply, ctx: PageContext, assets: UiAssets, status: number, title: string, content: string): Promise<FastifyReply> {
  const html = await renderDocument({
    lang: ctx.entry.lang,
    title,
    content: content + languageLinks(ctx),
    branding: ctx.branding,
    page: ctx.page,
    projectId: ctx.entry.project_id,
    assets,
  });
  return pageHeaders(reply, ctx.branding).header('content-language', ctx.entry.lang).status(status).send(html);
}

export interface StepRender {
  body: FlowResponse;
  /** the purpose of the flow on top (a recovery step offers the way back to sign-in) */
  purpose?: string;
  errors?: Record<string, string>;
  error?: string;
  values?: Record<string, string>;
}

export function sendStep(reply: FastifyReply, ctx: PageContext, assets: UiAssets, status: number, render: StepRender): Promise<FastifyReply> {
  const action = pageUrl(ctx.page, ctx.entry, { flow: render.body.id, done: undefined }, ctx.explicitLang);
  // OIDC login_hint: the identifier field starts with it until the user types something else.
  const hint = ctx.entry.login_hint;
  const identifier = hint !== undefined ? render.body.step.fields.find((field) => field.type === 'email') : undefined;
  const values = identifier && render.values?.[identifier.name] === undefined ? { ...render.values, [identifier.name]: hint! } : (render.values ?? {});
  // A recovery pivoted from a step-up resets a password: "confirm it's you" would not fit its steps.
  const notice = (ctx.entry.notice !== undefined ? NOTICES[ctx.entry.notice] : undefined) ?? (render.purpose === 'recovery' ? undefined : stepUpNotice(ctx.entry));
  let content = stepMarkup({ body: stepForLevel(render.body, ctx.entry), errors: render.errors ?? {}, error: render.error, values, action, t: ctx.t, notice });
  // Every recovery step has a way back (a pivot from sign-in, or /ui/recovery opened directly).
  if (render.purpose === 'recovery') content += `<p class="back"><a href="${esc(signInUrl(ctx.entry, ctx.explicitLang))}">${esc(ctx.t('ui.back_to_sign_in'))}</a></p>`;
  return sendPage(reply, ctx, assets, status, ctx.t(render.body.step.texts.title_key), content);
}

/** A page with a title, a message and links (completion, errors, notices). */
export function sendMessage(
  reply: FastifyReply,
  ctx: PageContext,
  assets: UiAssets,
  status: number,
  message: { titleKey: string; textKey: string; links?: Array<{ href: string; key: string }>; alert?: boolean; post?: { action: string; key: string } },
): Promise<FastifyReply> {
  const { t } = ctx;
  const text = `<p${message.alert ? ' role="alert"' : ''} class="description">${esc(t(message.textKey))}</p>`;
  let links = (message.links ?? []).map((link) => `<a class="btn primary" href="${esc(link.href)}">${esc(t(link.key))}</a>`).join('');
  // A change (signing out) is a form post, never a link: a prefetch or a crawler must not trigger it.
  if (message.post) links += `<form class="signout" method="post" action="${esc(message.post.action)}"><button type="submit" class="btn secondary">${esc(t(message.post.key))}</button></form>`;
  const content = `<h1>${esc(t(message.titleKey))}</h1>${text}${links ? `<div class="actions">${links}</div>` : ''}`;
  return sendPage(reply, ctx, assets, status, t(message.titleKey), content);
}

/** How an error looks as a page: its status, the text, and whether starting again can help. */
export function describeError(error: unknown): { status: number; key: string; restart: boolean; headers: Record<string, string> } {
  if (isConnectionError(error) || (error instanceof AppError && error.code === 'unavailable')) return { ...UNAVAILABLE, headers: { ...UNAVAILABLE.headers } };
  if (!(error instanceof AppError)) {
    const status = (error as { statusCode?: number })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) return { status, key: 'ui.error.invalid_request', restart: true, headers: {} };
    return { status: 500, key: 'ui.error.internal', restart: false, headers: {} };
  }
  const paths = ((error.details.errors as Array<{ path?: string }> | undefined) ?? []).map((e) => e.path);
  const base = { status: error.status, restart: true, headers: error.headers ?? {} };
  switch (error.code) {
    case 'proj.not_found':
      return { ...base, key: 'ui.error.project_not_found', restart: false };
    case 'att.invalid_request':
      if (paths.includes('body/redirect_uri')) return { ...base, key: 'ui.error.redirect_not_allowed', restart: false };
      if (paths.includes('body/purpose')) return { ...base, status: 404, key: 'ui.error.purpose_unknown', restart: false };
      return { ...base, key: 'ui.error.invalid_request' };
    case 'flow.not_found':
    case 'flow.expired':
    case 'flow.completed':
    case 'flow.invalid_action':
    case 'enc_key.decrypt_failed':
      return { ...base, key: 'ui.error.flow_gone' };
    case 'auth.csrf_invalid':
      return { ...base, key: 'ui.error.cross_site' };
    case 'auth.rate_limited':
      return { ...base, key: 'ui.error.rate_limited' };
    case 'req.invalid':
      if (paths.includes('querystring/project_id')) return { ...base, key: 'ui.error.project_missing', restart: false };
      if (paths.some((p) => p === 'querystring/resume_uri' || p === 'querystring/authorization_id')) return { ...base, key: 'ui.error.return_invalid', restart: false };
      return { ...base, key: 'ui.error.invalid_request' };
    default:
      return error.status >= 500 ? { status: 500, key: 'ui.error.internal', restart: false, headers: {} } : { ...base, key: 'ui.error.invalid_request' };
  }
}

export function sendError(reply: FastifyReply, ctx: PageContext, assets: UiAssets, error: unknown): Promise<FastifyReply> {
  const described = describeError(error);
  const links = [];
  if (described.restart && ctx.entry.project_id) links.push({ href: pageUrl(['error', 'link', 'logout'].includes(ctx.page) ? 'login' : ctx.page, ctx.entry, { flow: undefined, done: undefined }, ctx.explicitLang), key: 'ui.restart' });
  for (const [name, value] of Object.entries(described.headers)) if (name === 'retry-after') reply.header(name, value);
  return sendMessage(reply, ctx, assets, described.status, { titleKey: 'ui.error.title', textKey: described.key, links, alert: true });
}
