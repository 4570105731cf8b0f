import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { GatehouseError } from './errors.js';
import type { paths } from './generated/openapi.js';
import type { GatehouseClient } from './client.js';

export type FlowResponse = paths['/flow']['post']['responses'][200]['content']['application/json'];
export type Step = FlowResponse['step'];
export type StepField = Step['fields'][number];
export type StepAction = Step['actions'][number];
type StartBody = paths['/flow']['post']['requestBody']['content']['application/json'];
type SubmitBody = paths['/flow/{id}/submit']['post']['requestBody']['content']['application/json'];

/** How a passkey ceremony reaches an authenticator: `@simplewebauthn/browser` in browsers (the default). */
export interface PasskeyCeremonies {
  startAuthentication(args: { optionsJSON: never; useBrowserAutofill?: boolean }): Promise<unknown>;
  startRegistration(args: { optionsJSON: never }): Promise<unknown>;
}

const browserCeremonies: PasskeyCeremonies = {
  startAuthentication: (args) => startAuthentication(args),
  startRegistration: (args) => startRegistration(args),
};

/**
 * One end user's flow, as a frontend runs it: start, submit, follow the flow id when it changes
 * (switch, pivot), and passkey ceremonies. In a browser the flow state travels in the `_zflow`
 * cookie (create the client with `credentials: 'include'` when Gatehouse is on another origin);
 * elsewhere give the client a `cookieJarFetch()`.
 */
export class FlowClient {
  #id: string | undefined;
  #last: FlowResponse | undefined;

  constructor(
    private readonly gh: GatehouseClient,
    private readonly ceremonies: PasskeyCeremonies = browserCeremonies,
  ) {}

  /** The current flow id (it changes when a flow switches or pivots; the client follows). */
  get id(): string | undefined {
    return this.#id;
  }

  /** The latest answer. */
  get current(): FlowResponse | undefined {
    return this.#last;
  }

  async start(input: StartBody): Promise<FlowResponse> {
    return this.#follow(this.gh.api.POST('/flow', { body: input }));
  }

  /** Re-reads the current step (e.g. after an SSO redirect brought the browser back with `?flow=`). */
  async refresh(id = this.#id): Promise<FlowResponse> {
    if (!id) throw new Error('No flow: call start() first.');
    return this.#follow(this.gh.api.GET('/flow/{id}', { params: { path: { id } } }));
  }

  /** Submits an action of the current step with its fields; a refusal throws a GatehouseError (details.fields name the field errors). */
  async submit(action: string, fields: Record<string, unknown> = {}, extra: Omit<SubmitBody, 'action' | 'fields'> = {}): Promise<FlowResponse> {
    const id = this.#id;
    if (!id) throw new Error('No flow: call start() first.');
    return this.#follow(this.gh.api.POST('/flow/{id}/submit', { params: { path: { id } }, body: { action, fields, ...extra } }));
  }

  /**
   * Runs the passkey ceremony of the current step (`step.challenge`) and submits its answer with
   * `action`. Without a challenge yet, submits `action` first (with `fields`, e.g. the identifier)
   * to get one. A conditional (autofill) challenge waits for the user to pick a passkey.
   */
  async passkey(action: string, fields: Record<string, unknown> = {}): Promise<FlowResponse> {
    let challenge = this.#last?.step.challenge;
    if (!challenge) challenge = (await this.submit(action, fields)).step.challenge;
    if (!challenge) return this.#last!;
    const optionsJSON = challenge.options as never;
    const proof =
      challenge.method === 'passkey_register'
        ? await this.ceremonies.startRegistration({ optionsJSON })
        : await this.ceremonies.startAuthentication({ optionsJSON, useBrowserAutofill: challenge.mediation === 'conditional' });
    return this.submit(action, {}, { challenge_response: { challenge_id: challenge.challenge_id, method: challenge.method, proof: proof as Record<string, unknown> } });
  }

  /**
   * Starts a sign-in with an upstream provider of the current step (`step.sso_providers`) and
   * returns the URL to send the browser to. The provider brings it back to `returnTo` with
   * `?flow=<id>`; `refresh(id)` then shows where the flow went.
   */
  async sso(action: string, providerId: string, returnTo: string): Promise<string> {
    const answer = await this.submit(action, {}, { sso_provider_id: providerId, return_to: returnTo });
    if (!answer.redirect_uri) throw new Error('The step answered no provider URL.');
    return answer.redirect_uri;
  }

  async #follow(pending: Promise<{ data?: FlowResponse; error?: unknown; response: Response }>): Promise<FlowResponse> {
    try {
      const body = await this.gh.call(pending);
      this.#id = body.id;
      this.#last = body;
      return body;
    } catch (error) {
      // A refused submit names the flow it belongs to (it may be a new one after a pivot).
      if (error instanceof GatehouseError && typeof error.details.flow_id === 'string') this.#id = error.details.flow_id;
      throw error;
    }
  }
}
