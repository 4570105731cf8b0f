import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import * as samlify from 'samlify';
import { bearer, createListeningTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { Browser, type TestResponse } from '../../../../test/helpers/upstream-idp.js';
import { newKeyAndCertificate } from '../../../saml/cert.js';
import { defaultUserSchema } from '../../../schemas/default-schema.js';
import { STRONG_PASSWORD } from '../../flow-test-kit.js';
import type { FlowResponse } from '../../view.js';

samlify.setSchemaValidator({ validate: async () => 'skipped' });

export const SCHEMA_ID = 'https://example.com/schemas/saml-user';
export const PROVIDER = 'corp';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/** The default user schema with passwords, SSO and SAML enabled. */
export function samlSchema(): Record<string, unknown> {
  const schema = defaultUserSchema();
  schema.$id = SCHEMA_ID;
  schema['x-auth-methods'] = { password: { enabled: true }, passkey: { enabled: false }, sso: { enabled: true }, saml: { enabled: true }, otp: { enabled: false }, magic_link: { enabled: false } };
  return schema;
}

/** What the IdP asserts about the user it signs in. */
export interface IdpUser {
  nameId: string;
  attributes?: Record<string, string>;
  /** tweaks of the template's values (wrong Audience, times, no InResponseTo...) */
  values?: Record<string, string>;
  /** the NameID element's content as written (a comment inside it) */
  rawNameId?: string;
}

const esc = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A SAML IdP (samlify) on loopback, signing with keys of its own: GET /metadata and GET /sso (HTTP-Redirect). */
export class TestIdp {
  readonly keys = newKeyAndCertificate('test idp', new Date());
  /** who the next /sso signs in */
  user: IdpUser = { nameId: 'nobody' };
  encrypt = false;
  private server?: Server;
  base = '';
  idp!: ReturnType<typeof samlify.IdentityProvider>;

  constructor(private readonly now: () => Date) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request.url ?? '/').then(
        ([status, type, body]) => response.writeHead(status, { 'content-type': type }).end(body),
        (error: Error) => response.writeHead(500, { 'content-type': 'text/plain' }).end(error.stack),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    this.rebuild();
  }

  /** (Re)makes the samlify IdP, e.g. after `encrypt` changed. */
  rebuild(keys = this.keys): void {
    this.idp = samlify.IdentityProvider({
      entityID: `${this.base}/idp`,
      privateKey: keys.privateKey,
      signingCert: keys.certificate,
      singleSignOnService: [{ Binding: REDIRECT, Location: `${this.base}/sso` }],
      nameIDFormat: [PERSISTENT],
      isAssertionEncrypted: this.encrypt,
      wantAuthnRequestsSigned: false,
    });
  }

  metadata(): string {
    return this.idp.getMetadata();
  }

  /** The base64 SAMLResponse for an AuthnRequest URL (its query), as `user`, signed by the IdP's key. */
  async respond(authnUrl: string, spMetadata: string, user: IdpUser = this.user): Promise<string> {
    const sp = samlify.ServiceProvider({ metadata: spMetadata });
    const query = Object.fromEntries(new URL(authnUrl).searchParams);
    const { extract } = await this.idp.parseLoginRequest(sp, 'redirect', { query });
    const requestId = (extract as { request: { id: string } }).request.id;
    const now = this.now();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    const acs = /AssertionConsumerService [^>]*Location="([^"]+)"/.exec(spMetadata)![1];
    const values: Record<string, string> = {
      ID: `_r${Math.random().toString(16).slice(2)}`,
      AssertionID: `_a${Math.random().toString(16).slice(2)}${Date.now()}`,
      Destination: acs,
      Audience: /entityID="([^"]+)"/.exec(spMetadata)![1],
      SubjectRecipient: acs,
      Issuer: `${this.base}/idp`,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later,
      SubjectConfirmationDataNotOnOrAfter: later,
      NameIDFormat: PERSISTENT,
      NameID: user.nameId,
      InResponseTo: requestId,
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: Object.keys(user.attributes ?? {}).length
        ? `<saml:AttributeStatement>${Object.entries(user.attributes!).map(([name, value]) => `<saml:Attribute Name="${esc(name)}"><saml:AttributeValue xsi:type="xs:string">${esc(value)}</saml:AttributeValue></saml:Attribute>`).join('')}</saml:AttributeStatement>`
        : '',
    };
    Object.assign(values, user.values ?? {});
    const { context } = await this.idp.createLoginResponse(sp, { extract }, 'post', {}, (template: string) => {
      const raw = new Set(['AuthnStatement', 'AttributeStatement']);
      let xml = template.replace(/\{(\w+)\}/g, (_, key: string) => (raw.has(key) ? values[key] : esc(values[key] ?? '')));
      if (user.values?.InResponseTo === '') xml = xml.replace(/ InResponseTo=""/g, '');
      if (user.rawNameId !== undefined) xml = xml.replace(`>${esc(values.NameID)}</saml:NameID>`, `>${user.rawNameId}</saml:NameID>`);
      return { id: values.ID, context: xml };
    });
    return context;
  }

  private spMetadata = '';
  /** The SP metadata the IdP was given (the operator's paste of Gatehouse's SP metadata). */
  register(spMetadata: string): void {
    this.spMetadata = spMetadata;
  }

  private async handle(url: string): Promise<[number, string, string]> {
    const path = url.split('?')[0];
    if (path === '/metadata') return [200, 'application/samlmetadata+xml', this.metadata()];
    if (path === '/sso') {
      const response = await this.respond(`${this.base}${url}`, this.spMetadata);
      const acs = /AssertionConsumerService [^>]*Location="([^"]+)"/.exec(this.spMetadata)![1];
      // The HTTP-POST binding: a form the browser posts to the ACS (a button, and a script that presses it).
      return [200, 'text/html; charset=utf-8', `<!doctype html><html><body><form method="post" action="${esc(acs)}"><input type="hidden" name="SAMLResponse" value="${response}"><button type="submit" id="go">Continue</button></form><script>document.getElementById('go').click()</script></body></html>`];
    }
    return [404, 'text/plain', 'not found'];
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

export interface SamlKit {
  t: TestApp & { base: string };
  logs: string[];
  origin: string;
  idp: TestIdp;
  project: { id: string; project_secret: string };
  browser(): Browser;
  api(method: string, url: string, payload?: unknown): Promise<Awaited<ReturnType<TestApp['app']['inject']>>>;
  setProvider(body?: Record<string, unknown>): Promise<Record<string, unknown>>;
  createUser(email: string, options?: { verified?: boolean }): Promise<string>;
  /** Starts a login flow and submits the `sso` action for the SAML provider: the AuthnRequest URL. */
  start(browser: Browser, options?: { purpose?: string }): Promise<{ flowId: string; authnUrl: string; started: FlowResponse }>;
  /** Posts a SAMLResponse to the ACS like the IdP's form, then follows the 303 to the GET: the ACS's answer. */
  post(browser: Browser, samlResponse: string): Promise<TestResponse>;
  /** The IdP's signed SAMLResponse (base64) to an AuthnRequest URL, as `user`. */
  respond(authnUrl: string, user: IdpUser): Promise<string>;
  /** Posts `samlResponse` in `browser` and reads where the flow went (undefined when the ACS refused outright). */
  land(browser: Browser, samlResponse: string): Promise<{ acs: TestResponse; after?: { status: number; body: FlowResponse & { code?: string } } }>;
  /** Start, IdP sign-in as `user`, ACS; then reads where the flow went. */
  journey(browser: Browser, user: IdpUser, options?: { purpose?: string }): Promise<{ flowId: string; acs: TestResponse; after?: { status: number; body: FlowResponse & { code?: string } } }>;
  after(browser: Browser, acs: TestResponse): Promise<{ status: number; body: FlowResponse & { code?: string } }>;
  exchange(handoffToken: string): Promise<{ user_id: string; factors: Array<{ method: string; payload: Record<string, unknown> }> }>;
  /** the reasons logged for refused SAML sign-ins, oldest first */
  refusals(): string[];
  close(): Promise<void>;
}

const LOGIN_DEFINITION = {
  name: 'saml_login',
  user_schema: SCHEMA_ID,
  purposes: { saml_login: 'start' },
  steps: [
    { name: 'start', fields: ['email'], actions: [{ name: 'continue', kind: 'submit', primary: true }, { name: 'sso', kind: 'sso' }], sso_providers: ['*'], transitions: { continue: { target: 'password' }, callback: { target: 'done' }, link_saml: { target: 'link' } } },
    { name: 'password', fields: ['x-auth-methods#password'], actions: [{ name: 'sign_in', kind: 'submit', primary: true }], transitions: { sign_in: { target: 'done' } } },
    { name: 'link', fields: ['x-auth-methods#password'], actions: [{ name: 'confirm', kind: 'submit', primary: true }], on_success: 'link_saml', transitions: { confirm: { target: 'done' } } },
    { name: 'done', complete: 'redirect' },
  ],
};

/** Gatehouse on loopback, a samlify IdP on loopback, a project whose provider `corp` reads the IdP's metadata by URL. */
export async function samlKit(): Promise<SamlKit> {
  const logs: string[] = [];
  const t = await createListeningTestApp({}, { logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }) });
  const origin = t.base;
  const idp = new TestIdp(() => t.clock.now());
  await idp.start();
  const project = await t.createProject();
  const api = (method: string, url: string, payload?: unknown) => t.app.inject({ method: method as 'GET', url, headers: bearer(project.project_secret), ...(payload !== undefined ? { payload: payload as object } : {}) });
  const ok = async (what: string, response: Awaited<ReturnType<typeof api>>) => {
    if (response.statusCode >= 300) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
    return response;
  };
  await ok('schema', await api('POST', `/schemas?project_id=${project.id}`, samlSchema()));
  const kit: SamlKit = {
    t,
    logs,
    origin,
    idp,
    project,
    api,
    browser: () => new Browser(),
    async setProvider(body = {}) {
      const put = await ok('provider', await api('PUT', `/projects/${project.id}/saml_providers/${PROVIDER}`, { name: 'Corp', idp_metadata_url: `${idp.base}/metadata`, ...body }));
      idp.register((await t.app.inject({ method: 'GET', url: `/saml/${PROVIDER}/metadata?project_id=${project.id}` })).body);
      return put.json();
    },
    async createUser(email, options = {}) {
      const created = await ok('user', await api('POST', `/users?project_id=${project.id}`, { schema: SCHEMA_ID, attributes: { email } }));
      const id = created.json().id as string;
      await ok('password', await api('PUT', `/users/${id}/password`, { password: STRONG_PASSWORD }));
      if (options.verified) await t.container.users.markVerified(project.id, id, 'email');
      return id;
    },
    async start(browser, options = {}) {
      const flow = (await (await browser.fetch(`${origin}/flow`, { method: 'POST', json: { project_id: project.id, purpose: options.purpose ?? 'saml_login' } })).json()) as FlowResponse;
      const answer = await browser.fetch(`${origin}/flow/${flow.id}/submit`, { method: 'POST', json: { action: 'sso', sso_provider_id: PROVIDER, return_to: `${origin}/back` } });
      const started = (await answer.json()) as FlowResponse;
      if (answer.status !== 200 || !started.redirect_uri) throw new Error(`saml submit: ${answer.status} ${JSON.stringify(started)}`);
      return { flowId: flow.id, authnUrl: started.redirect_uri, started };
    },
    async post(browser, samlResponse) {
      const posted = await fetch(`${origin}/flow/saml/acs`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(), redirect: 'manual' });
      if (posted.status !== 303) return posted;
      return browser.fetch(new URL(posted.headers.get('location')!, origin).toString());
    },
    async respond(authnUrl, user) {
      return idp.respond(authnUrl, (await t.app.inject({ method: 'GET', url: `/saml/${PROVIDER}/metadata?project_id=${project.id}` })).body, user);
    },
    async land(browser, samlResponse) {
      const acs = await kit.post(browser, samlResponse);
      return { acs, ...(acs.status === 303 ? { after: await kit.after(browser, acs) } : {}) };
    },
    async journey(browser, user, options = {}) {
      const { flowId, authnUrl } = await kit.start(browser, options);
      return { flowId, ...(await kit.land(browser, await kit.respond(authnUrl, user))) };
    },
    async after(browser, acs) {
      const back = new URL(acs.headers.get('location')!);
      const response = await browser.fetch(`${origin}/flow/${back.searchParams.get('flow')}`);
      return { status: response.status, body: (await response.json()) as FlowResponse & { code?: string } };
    },
    async exchange(handoffToken) {
      const response = await ok('exchange', await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: handoffToken } }));
      return response.json().session;
    },
    refusals: () => logs.map((line) => JSON.parse(line) as { msg?: string; reason?: string }).filter((line) => line.msg === 'saml sign-in failed').map((line) => line.reason ?? ''),
    async close() {
      await idp.close();
      await t.close();
    },
  };
  await kit.setProvider();
  await ok('definition', await api('POST', '/flow_definitions', { project_id: project.id, schema_uri: SCHEMA_ID, flow_definition: LOGIN_DEFINITION }));
  return kit;
}
