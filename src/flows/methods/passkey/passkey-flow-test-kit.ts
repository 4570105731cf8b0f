import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { SoftwareAuthenticator, type AuthenticatorOptions } from '../../../../test/helpers/webauthn-authenticator.js';
import { FlowClient } from '../../flow-test-kit.js';

/** The public origin of the test service: flows posted from it may run passkey ceremonies. */
export const ORIGIN = 'http://localhost:4455';

/** A flow client whose requests come from the service's own origin (as the hosted UI's would). */
export class PasskeyClient extends FlowClient {
  async begin(projectId: string, purpose: string): Promise<LightMyRequestResponse> {
    return this.start({ project_id: projectId, purpose }, { origin: ORIGIN });
  }

  async act(id: string, action: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, origin = ORIGIN): Promise<LightMyRequestResponse> {
    return this.submit(id, action, fields, extra, { origin });
  }

  /** Answers `step.challenge` of `response` with `proof`. */
  async answer(response: LightMyRequestResponse, action: string, proof: unknown, origin = ORIGIN): Promise<LightMyRequestResponse> {
    const body = response.json();
    const challenge = body.step?.challenge ?? body.details?.challenge;
    const id = body.id ?? body.details?.flow_id;
    return this.act(id, action, {}, { challenge_response: { challenge_id: challenge.challenge_id, method: challenge.method, proof } }, origin);
  }
}

export interface PasskeyFlowKit {
  t: TestApp;
  projectId: string;
  projectSecret: string;
  /** Registers a passkey-only account through the default register flow; returns the final response. */
  registerWithPasskey(email: string, authenticator: SoftwareAuthenticator): Promise<LightMyRequestResponse>;
  /** Exchanges a complete step's handoff token for the session it proves. */
  exchange(response: LightMyRequestResponse): Promise<{ factors: Array<{ method: string; payload: Record<string, unknown> }>; assurance_levels: string[]; user_id?: string }>;
  authenticator(options?: AuthenticatorOptions): SoftwareAuthenticator;
}

export async function passkeyFlowKit(): Promise<PasskeyFlowKit> {
  const t = await createTestApp({ publicUrl: ORIGIN });
  const project = await t.createProject();
  return {
    t,
    projectId: project.id,
    projectSecret: project.project_secret,
    authenticator: (options) => new SoftwareAuthenticator(options),
    async registerWithPasskey(email, authenticator) {
      const client = new PasskeyClient(t);
      const started = await client.begin(project.id, 'register');
      const challenged = await client.act(started.json().id, 'passkey', { email, 'name.given': 'Pat' });
      if (challenged.statusCode !== 200) throw new Error(`register challenge: ${challenged.statusCode} ${challenged.body}`);
      const proof = await authenticator.create(challenged.json().step.challenge.options, { origin: ORIGIN });
      return client.answer(challenged, 'passkey', proof);
    },
    async exchange(response) {
      const { session } = await t.container.exchange.exchange(project.id, { handoffToken: response.json().handoff_token });
      return session as never;
    },
  };
}
