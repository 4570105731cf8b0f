import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../test/helpers/app.js';
import { DEFAULT_BRANDING } from '../flows/settings/service.js';
import type { FlowResponse, StepView } from '../flows/view.js';
import { translator } from './i18n.js';
import { stepMarkup, type StepExtras } from './step.js';

/** A browser-like client for the hosted pages over fastify inject: it keeps cookies and reads forms. */
export class PageClient {
  readonly cookies = new Map<string, string>();
  origin = 'http://localhost:80';
  constructor(private readonly t: TestApp, readonly headers: Record<string, string> = {}) {}

  private remember(response: LightMyRequestResponse): void {
    for (const c of response.cookies) {
      if (c.value === '' || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({ method: 'GET', url, headers: { ...this.headers, ...this.cookieHeader() } });
    this.remember(response);
    return response;
  }

  /** GET, following same-site 303/302 redirects (as a browser would). */
  async open(url: string): Promise<LightMyRequestResponse> {
    let response = await this.get(url);
    while ((response.statusCode === 303 || response.statusCode === 302) && String(response.headers.location).startsWith('/ui/')) {
      response = await this.get(String(response.headers.location));
    }
    return response;
  }

  async post(url: string, form: Record<string, string>, extra: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({
      method: 'POST',
      url,
      headers: { ...this.headers, ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, ...extra },
      payload: new URLSearchParams(form).toString(),
    });
    this.remember(response);
    return response;
  }

  /** Submits the page's form with the given values (`f.` is added to field names) and button. */
  async submit(page: LightMyRequestResponse, action: string, fields: Record<string, string> = {}, extra: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    // The button's own name, as a browser would send it (`navigate` buttons carry no fields).
    const button = page.body.includes(`name="navigate" value="${action}"`) ? 'navigate' : 'action';
    const form: Record<string, string> = { [button]: action };
    for (const [name, value] of Object.entries(fields)) form[name === 'captcha' ? name : `f.${name}`] = value;
    const response = await this.post(formAction(page.body), form, extra);
    if (response.statusCode === 303 && String(response.headers.location).startsWith('/ui/')) return this.open(String(response.headers.location));
    return response;
  }
}

export function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in page: ${html.slice(0, 500)}`);
  return match[1].replace(/&amp;/g, '&');
}

/** The markup of one step (an `identify` form unless `step` says otherwise), as the hosted page draws it, in English. */
export function stepPage(step: Partial<StepView & StepExtras> & Record<string, unknown>, extra: { errors?: Record<string, string>; values?: Record<string, string> } = {}): string {
  const body: FlowResponse = {
    id: 'flow_1',
    session_id: 'sess_1',
    branding: DEFAULT_BRANDING,
    step: { name: 'identify', type: 'form', texts: { title_key: 'step.identify.title', description_key: 'step.identify.description' }, fields: [], actions: [], ...step } as StepView,
  };
  return stepMarkup({ body, errors: extra.errors ?? {}, values: extra.values ?? {}, action: '/ui/login?flow=flow_1', t: translator('en') });
}
