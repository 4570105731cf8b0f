import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { bearer, createListeningTestApp, createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from '../../flow-test-kit.js';

/** A signed-in user: the session the login handed off and the token that proves holding it. */
export interface SignedIn {
  userId: string;
  sessionId: string;
  token: string;
}

/** The code an authenticator app shows for `secret` at `at` (RFC 6238, 6 digits, 30 s). */
export function codeAt(secret: string, at: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at.getTime() });
}

export interface MfaKit {
  t: TestApp;
  /** The address the app listens on (`mfaKit({ listen: true })`), for real HTTP. */
  base?: string;
  projectId: string;
  projectSecret: string;
  /** Registers through the default register flow and exchanges the handoff: a fresh session. */
  register(email: string): Promise<SignedIn>;
  /** The default login flow up to its answer to the password (the TOTP step, or complete). */
  password(email: string, password?: string, client?: FlowClient): Promise<LightMyRequestResponse>;
  exchange(response: LightMyRequestResponse): Promise<SignedIn & { factors: Array<{ method: string; payload: Record<string, unknown> }>; assurance_levels: string[] }>;
  /** Starts a settings flow for the session, proving it with its token. */
  settings(who: SignedIn, client?: FlowClient): Promise<LightMyRequestResponse>;
  /** Sets up TOTP through a settings flow; the seed. */
  enrollTotp(who: SignedIn): Promise<string>;
  /** A new set of recovery codes through a settings flow. */
  recoveryCodes(who: SignedIn): Promise<string[]>;
  credentials(userId: string): Promise<Array<{ id: string; method: string }>>;
}

export async function mfaKit(options: { listen?: boolean } = {}): Promise<MfaKit> {
  const t = options.listen ? await createListeningTestApp() : await createTestApp();
  const project = await t.createProject();
  const exchange: MfaKit['exchange'] = async (response) => {
    const handoff = response.json().handoff_token;
    if (typeof handoff !== 'string') throw new Error(`no handoff: ${response.statusCode} ${response.body}`);
    const issued = await t.container.exchange.exchange(project.id, { handoffToken: handoff });
    const session = issued.session as never as { session_id: string; user_id: string; factors: never; assurance_levels: string[] };
    return { userId: session.user_id, sessionId: session.session_id, token: issued.session_token, factors: session.factors, assurance_levels: session.assurance_levels };
  };
  const kit: MfaKit = {
    t,
    base: 'base' in t ? (t.base as string) : undefined,
    projectId: project.id,
    projectSecret: project.project_secret,
    async register(email) {
      return exchange(await registerThroughFlow(t, project.id, email));
    },
    async password(email, password = STRONG_PASSWORD, client = new FlowClient(t)) {
      const started = await client.start({ project_id: project.id, purpose: 'login' });
      const identified = await client.submit(started.json().id, 'continue', { email });
      return client.submit(identified.json().id, 'sign_in', { password });
    },
    exchange,
    settings(who, client = new FlowClient(t)) {
      return client.start({ project_id: project.id, purpose: 'settings', session_id: who.sessionId }, bearer(who.token));
    },
    async enrollTotp(who) {
      const client = new FlowClient(t);
      const menu = await kit.settings(who, client);
      const shown = await client.submit(menu.json().id, 'setup_totp');
      const secret = shown.json().step.totp.secret as string;
      const enabled = await client.submit(shown.json().id, 'enable', { totp: codeAt(secret, t.clock.now()) });
      if (enabled.statusCode !== 200) throw new Error(`enable_totp: ${enabled.statusCode} ${enabled.body}`);
      // The confirming code spent its time step: move on, as a user would before signing in.
      t.clock.advance(30_000);
      return secret;
    },
    async recoveryCodes(who) {
      const client = new FlowClient(t);
      const menu = await kit.settings(who, client);
      const confirm = await client.submit(menu.json().id, 'new_recovery_codes');
      const shown = await client.submit(confirm.json().id, 'generate');
      if (shown.statusCode !== 200) throw new Error(`generate_recovery_codes: ${shown.statusCode} ${shown.body}`);
      return shown.json().step.recovery_codes;
    },
    async credentials(userId) {
      const listed = await t.app.inject({ method: 'GET', url: `/users/${userId}/credentials`, headers: bearer(project.project_secret) });
      return listed.json().credentials;
    },
  };
  return kit;
}
