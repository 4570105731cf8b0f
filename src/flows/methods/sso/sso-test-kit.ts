import { pino } from 'pino';
import type { Config } from '../../../config.js';
import { SealedBox } from '../../../core/sealed-box.js';
import { SsoProviderStore } from '../../../sso/store.js';
import { DEFAULT_CLAIMS } from '../../../sso/templates.js';
import { bearer, createListeningTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { Browser, startUpstreamIdp, type TestResponse, type UpstreamIdp } from '../../../../test/helpers/upstream-idp.js';
import { defaultUserSchema } from '../../../schemas/default-schema.js';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import type { FlowResponse } from '../../view.js';

export const SCHEMA_ID = 'https://example.com/schemas/sso-user';
export const PROVIDER = 'acme';

/** The default user schema with SSO enabled beside passwords. */
export function ssoSchema(): Record<string, unknown> {
  const schema = defaultUserSchema();
  schema.$id = SCHEMA_ID;
  schema['x-auth-methods'] = { password: { enabled: true }, passkey: { enabled: false }, sso: { enabled: true }, otp: { enabled: false }, magic_link: { enabled: false } };
  return schema;
}

const ssoStep = (transitions: Record<string, { target: string }>) => ({
  name: 'start',
  actions: [{ name: 'sso', kind: 'sso', primary: true }],
  sso_providers: [PROVIDER],
  transitions,
});
export const linkStep = {
  name: 'link_account',
  fields: ['x-auth-methods#password'],
  actions: [{ name: 'confirm', kind: 'submit', primary: true }],
  on_success: 'link_sso',
  transitions: { confirm: { target: 'done' } },
};
const done = { name: 'done', complete: 'redirect' };
/** A settings flow (for the app `sso-app`) that connects another provider identity to the signed-in user. */
export const SETTINGS_APP = 'sso-app';

/**
 * `sso_login`: sign in, link a verified e-mail after the password, create unknown users just in
 * time. `sso_signup`: unknown identities go to a registration step prefilled from the claims.
 */
export const SSO_DEFINITIONS = [
  { name: 'sso_login', user_schema: SCHEMA_ID, purposes: { sso_login: 'start' }, steps: [ssoStep({ callback: { target: 'done' }, link_account: { target: 'link_account' } }), linkStep, done] },
  {
    name: 'sso_signup',
    user_schema: SCHEMA_ID,
    purposes: { sso_signup: 'start' },
    steps: [
      ssoStep({ callback: { target: 'done' }, user_not_found: { target: 'register' } }),
      { name: 'register', fields: ['email', 'name.given'], actions: [{ name: 'create', kind: 'submit', primary: true }], on_success: 'create_user', transitions: { create: { target: 'done' } } },
      done,
    ],
  },
  {
    name: 'sso_settings',
    user_schema: SCHEMA_ID,
    purposes: { settings: 'menu' },
    audience: { app_ids: [SETTINGS_APP] },
    steps: [
      {
        name: 'menu',
        fields: ['x-flow#credential_id'],
        actions: [
          { name: 'sso', kind: 'sso' },
          { name: 'remove_credential', kind: 'submit' },
          { name: 'finish', kind: 'navigate', primary: true },
        ],
        sso_providers: [PROVIDER],
        on_success: 'remove_credential',
        transitions: { callback: { target: 'menu' }, remove_credential: { target: 'menu' }, finish: { target: 'done' } },
      },
      { ...done, complete: 'show' },
    ],
  },
];

export interface SsoJourney {
  flowId: string;
  /** the answer to the `sso` submit (its `redirect_uri` is the upstream authorization URL) */
  started: FlowResponse;
  /** the callback URL the upstream sent the browser to */
  callbackUrl: string;
  /** the callback's answer (a 303, or an error); not fetched with `callback: false` */
  callback: TestResponse;
  /** `GET /flow/{id}` after the callback, when it redirected */
  after?: { status: number; body: FlowResponse & { code?: string } };
}

export interface SsoKit {
  t: TestApp;
  /** every line the service logged (JSON) */
  logs: string[];
  origin: string;
  upstream: UpstreamIdp;
  project: { id: string; project_secret: string };
  browser(): Browser;
  /** A user of the SSO schema with a password; `verified` marks its e-mail verified. */
  createUser(email: string, options?: { verified?: boolean }): Promise<string>;
  /** Starts `purpose`, submits the `sso` action and signs in upstream as `subject`, up to the callback's answer. */
  journey(browser: Browser, purpose: string, subject: string | undefined, options?: { follow?: boolean; callback?: boolean; projectId?: string; action?: string }): Promise<SsoJourney>;
  /** Reads the flow the callback sent the browser back to. */
  after(browser: Browser, callback: TestResponse): Promise<{ status: number; body: FlowResponse & { code?: string } }>;
  submit(browser: Browser, flowId: string, body: Record<string, unknown>): Promise<{ status: number; body: FlowResponse & { code?: string; details?: Record<string, unknown> } }>;
  exchange(handoffToken: string, other?: { id: string; project_secret: string }): Promise<{ session_id: string; user_id: string; factors: Array<{ method: string; payload: Record<string, unknown> }>; token: string }>;
  setProvider(body?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/**
 * Gatehouse listening on loopback, a real upstream OpenID provider, a project with provider `acme`;
 * `config` overrides the test configuration. With `storedProvider` the provider is written to the
 * store directly, past the API's checks: the upstream's loopback issuer is refused at registration
 * with a production public URL, and a call-time refusal needs it stored (as a provider registered
 * before that check, or a name that came to resolve to a private address, would be).
 */
export async function ssoKit(config: Partial<Config> = {}, options: { storedProvider?: boolean } = {}): Promise<SsoKit> {
  const logs: string[] = [];
  const t = await createListeningTestApp(config, { logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }) });
  const origin = t.base;
  const upstream = await startUpstreamIdp(`${origin}/flow/sso/callback`);
  const project = await t.createProject();
  const api = (method: string, url: string, payload?: unknown) => t.app.inject({ method: method as 'GET', url, headers: bearer(project.project_secret), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const expect2xx = async (what: string, response: Awaited<ReturnType<typeof api>>) => {
    if (response.statusCode >= 300) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
    return response;
  };
  await expect2xx('schema', await api('POST', `/schemas?project_id=${project.id}`, ssoSchema()));
  const kit: SsoKit = {
    t,
    logs,
    origin,
    upstream,
    project,
    browser: () => new Browser(),
    async setProvider(body = {}) {
      await expect2xx('provider', await api('PUT', `/projects/${project.id}/sso_providers/${PROVIDER}`, { name: 'Acme', template: 'oidc', issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret, ...body }));
    },
    async createUser(email, options = {}) {
      const created = await expect2xx('user', await api('POST', `/users?project_id=${project.id}`, { schema: SCHEMA_ID, attributes: { email } }));
      const id = created.json().id as string;
      await expect2xx('password', await api('PUT', `/users/${id}/password`, { password: STRONG_PASSWORD }));
      if (options.verified) await t.container.users.markVerified(project.id, id, 'email');
      return id;
    },
    async journey(browser, purpose, subject, options = {}) {
      const flow = (await (await browser.fetch(`${origin}/flow`, { method: 'POST', json: { project_id: options.projectId ?? project.id, purpose } })).json()) as FlowResponse;
      const answer = await browser.fetch(`${origin}/flow/${flow.id}/submit`, { method: 'POST', json: { action: options.action ?? 'sso', sso_provider_id: PROVIDER, return_to: `${origin}/back` } });
      const started = (await answer.json()) as FlowResponse;
      if (answer.status !== 200 || !started.redirect_uri) throw new Error(`sso submit: ${answer.status} ${JSON.stringify(started)}`);
      upstream.signInAs(subject);
      const callbackUrl = await browser.followUntil(started.redirect_uri, `${origin}/flow/sso/callback`);
      if (options.callback === false) return { flowId: flow.id, started, callbackUrl, callback: undefined as never };
      const callback = await browser.fetch(callbackUrl);
      const journey: SsoJourney = { flowId: flow.id, started, callbackUrl, callback };
      if ((options.follow ?? true) && callback.status === 303) journey.after = await kit.after(browser, callback);
      return journey;
    },
    async after(browser, callback) {
      const back = new URL(callback.headers.get('location')!);
      const response = await browser.fetch(`${origin}/flow/${back.searchParams.get('flow')}`);
      return { status: response.status, body: (await response.json()) as FlowResponse & { code?: string } };
    },
    async submit(browser, flowId, body) {
      const response = await browser.fetch(`${origin}/flow/${flowId}/submit`, { method: 'POST', json: body });
      return { status: response.status, body: (await response.json()) as FlowResponse & { code?: string; details?: Record<string, unknown> } };
    },
    async exchange(handoffToken, other) {
      const target = other ?? project;
      const response = await expect2xx('exchange', await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${target.id}`, headers: bearer(target.project_secret), payload: { handoff_token: handoffToken } }));
      return { ...response.json().session, token: response.json().session_token };
    },
    async close() {
      await upstream.close();
      await t.close();
    },
  };
  if (options.storedProvider) {
    const now = t.clock.now();
    const box = new SealedBox(t.container.keys, 'sso.client-secret');
    await new SsoProviderStore(t.container.db).insertNew({
      project_id: project.id,
      id: PROVIDER,
      name: 'Acme',
      template: 'oidc',
      issuer: upstream.issuer,
      client_id: upstream.clientId,
      client_secret_sealed: box.seal(upstream.clientSecret),
      scopes: ['openid', 'email', 'profile'],
      claims: { ...DEFAULT_CLAIMS },
      link: 'none',
      enabled: true,
      created_at: now,
      updated_at: now,
    });
  } else {
    await kit.setProvider();
  }
  for (const flow_definition of SSO_DEFINITIONS) {
    await expect2xx('definition', await api('POST', '/flow_definitions', { project_id: project.id, schema_uri: SCHEMA_ID, flow_definition }));
  }
  return kit;
}
