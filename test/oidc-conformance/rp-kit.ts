import type { LightMyRequestResponse } from 'fastify';
import { registerThroughFlow } from '../../src/flows/flow-test-kit.js';
import { basic, challengeOf, loginHandoff, postForm } from '../../src/oauth/testing.js';
import { bearer, createTestApp, type TestApp } from '../helpers/app.js';

export const location = (response: LightMyRequestResponse) => new URL(response.headers.location as string);
export const binding = (response: LightMyRequestResponse) => `__gh_authz=${response.cookies.find((c) => c.name === '__gh_authz')!.value}`;

/**
 * A relying party for the conformance checks, driven over `inject`: a project with one user, an
 * OIDC client, and the code flow's steps (authorize, the login flow's handoff, resume, redeem).
 */
export async function conformanceRp(options: { email: string; redirect: string; verifier: string; scope?: string; client?: Record<string, unknown> }) {
  const t: TestApp = await createTestApp();
  const project = await t.createProject();
  await registerThroughFlow(t, project.id, options.email);
  const rp: { client_id: string; client_secret: string } = (
    await t.app.inject({ method: 'POST', url: `/projects/${project.id}/oauth_clients`, headers: bearer(project.project_secret), payload: { redirect_uris: [options.redirect], ...options.client } })
  ).json();

  const params = async (extra: Record<string, string> = {}) => ({
    response_type: 'code', client_id: rp.client_id, redirect_uri: options.redirect, scope: options.scope ?? 'openid', state: 's-1', nonce: 'n-1',
    code_challenge: await challengeOf(options.verifier), code_challenge_method: 'S256', ...extra,
  });
  const authorize = async (extra: Record<string, string> = {}, cookie?: string) =>
    t.app.inject({ method: 'GET', url: `/auth/authorize?${new URLSearchParams(await params(extra))}`, headers: cookie ? { cookie } : {} });
  /** Back from the login flow (a real handoff of the user) to the resume endpoint. */
  const resume = async (started: LightMyRequestResponse) =>
    postForm(t, '/auth/authorize/resume', { authorization_id: location(started).searchParams.get('authorization_id')!, handoff_token: await loginHandoff(t, project.id, options.email) }, { cookie: binding(started) });
  const token = (form: Record<string, string>) => postForm(t, '/auth/token', form, basic(rp.client_id, rp.client_secret));
  const redeem = (code: string, extra: Record<string, string> = {}) => token({ grant_type: 'authorization_code', code, redirect_uri: options.redirect, code_verifier: options.verifier, ...extra });
  /** A whole sign-in: its tokens and the Gatehouse session cookie it left. */
  const signIn = async (extra: Record<string, string> = {}) => {
    const resumed = await resume(await authorize(extra));
    const tokens = (await redeem(location(resumed).searchParams.get('code')!)).json();
    return { tokens, session: resumed.cookies.find((c) => c.name === '__service_session')!.value };
  };
  return { t, project, rp, params, authorize, resume, token, redeem, signIn };
}
