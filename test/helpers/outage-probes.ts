import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Config } from '../../src/config.js';
import { esc } from '../../src/ui/html.js';
import { translator } from '../../src/ui/i18n.js';
import { bearer } from './app.js';

/**
 * One request per route family, with what it answers while the database is there (`up`) and
 * while it is gone (`down`): the pages, the flow API, the SSO callback, the OAuth endpoints,
 * and the routes that need no database at all (which must keep answering).
 */
export interface OutageProbe {
  name: string;
  kind: 'page' | 'oauth' | 'api' | 'other';
  request: InjectOptions;
  up: number;
  down: number;
  /** For pages: the translated unavailable text (HTML-escaped) the 503 page must show. */
  unavailableText?: string;
}

export interface ProbeFixtures {
  projectId: string;
  adminToken: string;
  origin: string;
  flowId: string;
  flowCookie: string;
  clientId: string;
  clientSecret: string;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const REDIRECT = 'https://app.example.com/callback';

/** Creates what the probes name (an OAuth client, a started hosted-page flow) while the database is there. */
export async function prepareOutageProbes(app: FastifyInstance, config: Config, project: { id: string; project_secret: string }): Promise<ProbeFixtures> {
  const client = await app.inject({
    method: 'POST',
    url: `/projects/${project.id}/oauth_clients`,
    headers: bearer(project.project_secret),
    payload: { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' },
  });
  if (client.statusCode !== 201) throw new Error(`oauth client: ${client.statusCode} ${client.body}`);
  const started = await app.inject({ method: 'GET', url: `/ui/login?project_id=${project.id}` });
  const flowId = new URL(started.headers.location as string, 'http://x').searchParams.get('flow');
  const cookie = started.cookies.find((c) => c.name === '_zflow');
  if (!flowId || !cookie) throw new Error(`hosted login did not start a flow: ${started.statusCode} ${started.body}`);
  return {
    projectId: project.id,
    adminToken: config.adminToken,
    origin: new URL(config.publicUrl).origin,
    flowId,
    flowCookie: `_zflow=${cookie.value}`,
    clientId: client.json().client_id,
    clientSecret: client.json().client_secret,
  };
}

export function outageProbes(f: ProbeFixtures): OutageProbe[] {
  const en = esc(translator('en')('ui.error.unavailable'));
  const de = esc(translator('de')('ui.error.unavailable'));
  const p = f.projectId;
  const page = (name: string, request: InjectOptions, up: number, text = en): OutageProbe => ({ name, kind: 'page', request, up, down: 503, unavailableText: text });
  const oauth = (name: string, request: InjectOptions, up: number): OutageProbe => ({ name, kind: 'oauth', request, up, down: 503 });
  const api = (name: string, request: InjectOptions, up: number): OutageProbe => ({ name, kind: 'api', request, up, down: 503 });
  const steady = (name: string, request: InjectOptions, status = 200): OutageProbe => ({ name, kind: 'other', request, up: status, down: status });
  const clientAuth = { client_id: f.clientId, client_secret: f.clientSecret };
  const authorize = new URLSearchParams({ response_type: 'code', client_id: f.clientId, redirect_uri: REDIRECT, scope: 'openid', state: 'outage-state', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
  return [
    page('GET /ui/login', { method: 'GET', url: `/ui/login?project_id=${p}` }, 303),
    page('GET /ui/register (German)', { method: 'GET', url: `/ui/register?project_id=${p}&lang=de` }, 303, de),
    page('GET /ui/recovery', { method: 'GET', url: `/ui/recovery?project_id=${p}` }, 303),
    page('GET /ui/settings', { method: 'GET', url: `/ui/settings?project_id=${p}`, headers: { cookie: '__service_session=gh_st_outage' } }, 401),
    page('GET /ui/login with a flow', { method: 'GET', url: `/ui/login?project_id=${p}&flow=${f.flowId}`, headers: { cookie: f.flowCookie } }, 200),
    page('GET /ui/login?done', { method: 'GET', url: `/ui/login?project_id=${p}&done=signed_out` }, 200),
    page('POST /ui/login (a form post)', { method: 'POST', url: `/ui/login?project_id=${p}&flow=${f.flowId}`, headers: { ...FORM, cookie: f.flowCookie, origin: f.origin }, payload: 'unknown_field=1' }, 400),
    page('POST /ui/logout', { method: 'POST', url: `/ui/logout?project_id=${p}`, headers: { ...FORM, cookie: '__service_session=gh_st_outage', origin: f.origin }, payload: '' }, 303),
    page('GET /ui/link', { method: 'GET', url: `/ui/link?project_id=${p}` }, 200),
    page('GET /ui/error', { method: 'GET', url: `/ui/error?project_id=${p}` }, 200),
    page('GET /auth/logout', { method: 'GET', url: `/auth/logout?client_id=${f.clientId}` }, 200),
    api('POST /flow', { method: 'POST', url: '/flow', payload: { project_id: p, purpose: 'login' } }, 200),
    api('GET /flow/:id', { method: 'GET', url: `/flow/${f.flowId}?project_id=${p}`, headers: { cookie: f.flowCookie } }, 200),
    api('POST /flow/:id/event', { method: 'POST', url: `/flow/${f.flowId}/event?project_id=${p}`, headers: { cookie: f.flowCookie, origin: f.origin }, payload: { type: 'fingerprint', payload: { fingerprint: 'outage' } } }, 204),
    // A callback whose binding does not match its flow is refused from the cookies alone (400);
    // one that matches reaches the database through the global handler (503 like the flow API).
    steady('GET /flow/sso/callback (unbound)', { method: 'GET', url: '/flow/sso/callback?state=s&code=c', headers: { cookie: `_zsso=${f.flowId}.binding; ${f.flowCookie}` } }, 400),
    oauth('GET /auth/authorize', { method: 'GET', url: `/auth/authorize?${authorize}` }, 302),
    oauth('POST /auth/token', { method: 'POST', url: '/auth/token', headers: FORM, payload: new URLSearchParams({ grant_type: 'authorization_code', code: 'gh_ac_outage', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43), ...clientAuth }).toString() }, 400),
    oauth('POST /auth/revoke', { method: 'POST', url: '/auth/revoke', headers: FORM, payload: new URLSearchParams({ token: 'gh_at_outage', ...clientAuth }).toString() }, 200),
    oauth('POST /auth/introspect', { method: 'POST', url: '/auth/introspect', headers: FORM, payload: new URLSearchParams({ token: 'gh_at_outage', ...clientAuth }).toString() }, 200),
    oauth('GET /auth/userinfo', { method: 'GET', url: '/auth/userinfo', headers: { authorization: 'Bearer gh_at_outage' } }, 401),
    oauth('GET /auth/authorize/resume', { method: 'GET', url: '/auth/authorize/resume?authorization_id=authz_outage&handoff_token=gh_ho_outage' }, 400),
    steady('GET /healthz', { method: 'GET', url: '/healthz' }),
    steady('GET /.well-known/openid-configuration', { method: 'GET', url: '/.well-known/openid-configuration' }),
    oauth('GET /auth/jwks', { method: 'GET', url: '/auth/jwks' }, 200),
    steady('GET /ui/assets (missing)', { method: 'GET', url: '/ui/assets/none.css' }, 404),
    steady('GET /', { method: 'GET', url: '/' }),
    steady('GET /openapi.json', { method: 'GET', url: '/openapi.json' }),
    steady('GET /metrics', { method: 'GET', url: '/metrics', headers: bearer(f.adminToken) }),
  ];
}
