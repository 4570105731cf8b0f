import { SoftwareAuthenticator } from '../test/helpers/webauthn-authenticator.js';
import { exchange, post, zflowOf } from './journey.js';

/**
 * The passkey journey of `npm run bench`: users registered with passkey-only accounts through the
 * default register flow, then signed in usernameless (the rendered login step's autofill
 * challenge, answered by a software authenticator in the load process) and exchanged. No password
 * hash is involved, so its cost is the flow engine's own.
 */
interface Flow {
  id: string;
  step: { type?: string; challenge?: { challenge_id: string; method: string; options: never } };
  handoff_token?: string;
}

class FlowBrowser {
  private cookie = '';
  constructor(private readonly baseUrl: string) {}

  async send(path: string, body: unknown): Promise<Flow> {
    const response = await post(`${this.baseUrl}${path}`, { origin: this.baseUrl, ...(this.cookie ? { cookie: `_zflow=${this.cookie}` } : {}) }, body);
    const zflow = zflowOf(response.setCookie);
    if (zflow !== undefined) this.cookie = zflow;
    if (response.status !== 200) throw new Error(`${path} answered ${response.status} ${(response.json as { code?: string }).code ?? ''}`);
    return response.json as Flow;
  }

  answer(flow: Flow, proof: unknown): Promise<Flow> {
    const challenge = flow.step.challenge!;
    return this.send(`/flow/${flow.id}/submit`, { action: 'passkey', challenge_response: { challenge_id: challenge.challenge_id, method: challenge.method, proof } });
  }
}

/** Registers a passkey-only account for `email`; the authenticator keeps its key. */
export async function registerPasskeyUser(baseUrl: string, projectId: string, email: string): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator();
  const browser = new FlowBrowser(baseUrl);
  const started = await browser.send('/flow', { project_id: projectId, purpose: 'register' });
  const challenged = await browser.send(`/flow/${started.id}/submit`, { action: 'passkey', fields: { email } });
  const done = await browser.answer(challenged, await authenticator.create(challenged.step.challenge!.options, { origin: baseUrl }));
  if (done.step.type !== 'complete') throw new Error('passkey registration did not complete');
  return authenticator;
}

/** One usernameless sign-in and its exchange; true when a session came out of it. */
export async function runPasskeyJourney(baseUrl: string, projectId: string, secret: string, authenticator: SoftwareAuthenticator): Promise<true | string> {
  const browser = new FlowBrowser(baseUrl);
  const started = await browser.send('/flow', { project_id: projectId, purpose: 'login' });
  if (!started.step.challenge) return 'the login step carried no autofill challenge';
  const done = await browser.answer(started, await authenticator.get(started.step.challenge.options, { origin: baseUrl }));
  if (!done.handoff_token) return `journey ended at ${done.step.type ?? '?'}`;
  await exchange(baseUrl, projectId, secret, done.handoff_token);
  return true;
}
