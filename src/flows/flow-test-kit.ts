import { solveChallenge } from 'altcha-lib/v1';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, type TestApp } from '../../test/helpers/app.js';
import { FLOW_COOKIE } from './cookie.js';
import type { CaptchaGateView } from './gates/captcha.js';

/** A browser-like client for the /flow API over fastify inject: it keeps the `_zflow` cookie. */
export class FlowClient {
  cookie?: string;
  constructor(private readonly t: TestApp, readonly ip = '203.0.113.10') {}

  private remember(response: LightMyRequestResponse): void {
    const set = response.cookies.find((c) => c.name === FLOW_COOKIE);
    if (set) this.cookie = set.value === '' ? undefined : set.value;
  }

  private headers(): Record<string, string> {
    return this.cookie ? { cookie: `${FLOW_COOKIE}=${this.cookie}` } : {};
  }

  async start(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({ method: 'POST', url: '/flow', payload: body, headers: { ...this.headers(), ...headers }, remoteAddress: this.ip });
    this.remember(response);
    return response;
  }

  async get(id: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({ method: 'GET', url: `/flow/${id}`, headers: { ...this.headers(), ...headers }, remoteAddress: this.ip });
    this.remember(response);
    return response;
  }

  async submit(id: string, action: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.t.app.inject({
      method: 'POST',
      url: `/flow/${id}/submit`,
      payload: { action, fields, ...extra },
      headers: { ...this.headers(), ...headers },
      remoteAddress: this.ip,
    });
    this.remember(response);
    return response;
  }

  async event(id: string, type: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
    return this.t.app.inject({ method: 'POST', url: `/flow/${id}/event`, payload: { type, payload }, headers: this.headers(), remoteAddress: this.ip });
  }
}

export const STRONG_PASSWORD = 'correct horse battery staple 42';

/** Registers a user through the default register flow and returns the final response. */
export async function registerThroughFlow(t: TestApp, projectId: string, email: string, password = STRONG_PASSWORD): Promise<LightMyRequestResponse> {
  const client = new FlowClient(t);
  const started = await client.start({ project_id: projectId, purpose: 'register' });
  if (started.statusCode !== 200) throw new Error(`register start: ${started.statusCode} ${started.body}`);
  return client.submit(started.json().id, 'create', { email, 'name.given': 'Ann', password });
}

/** Solves an ALTCHA challenge by brute force, as the widget does, and encodes the proof. */
export async function solve(gate: CaptchaGateView): Promise<string> {
  const { config } = gate;
  const solution = await solveChallenge(config.challenge, config.salt, config.algorithm, config.max_number).promise;
  if (!solution) throw new Error('captcha not solvable');
  return Buffer.from(JSON.stringify({ algorithm: config.algorithm, challenge: config.challenge, number: solution.number, salt: config.salt, signature: config.signature })).toString('base64');
}

/**
 * A project for a throw-away sign-in method's tests: a user schema with the e-mail identifier (and
 * `x-auth-methods` as given), one user, and per purpose a definition of one `identify` step asking
 * for the e-mail and the method's field, then `done`.
 */
export async function methodTestProject(t: TestApp, options: { schemaId: string; email: string; purposes: Record<string, string>; authMethods?: Record<string, unknown> }): Promise<{ project: { id: string; project_secret: string }; userId: string }> {
  const project = await t.createProject();
  const headers = bearer(project.project_secret);
  const schema = {
    $id: options.schemaId,
    type: 'object',
    objectType: 'member',
    required: ['email'],
    additionalProperties: false,
    'x-auth-methods': options.authMethods ?? { password: { enabled: true } },
    properties: { email: { type: 'string', format: 'email', 'x-unique': 'project' } },
  };
  const posted = await t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers, payload: schema });
  if (posted.statusCode !== 201) throw new Error(`schema: ${posted.body}`);
  const user = await t.app.inject({ method: 'POST', url: `/users?project_id=${project.id}`, headers, payload: { schema: options.schemaId, attributes: { email: options.email } } });
  if (user.statusCode !== 201) throw new Error(`user: ${user.body}`);
  for (const [name, field] of Object.entries(options.purposes)) {
    const steps = [
      { name: 'identify', fields: ['email', field], actions: [{ name: 'sign_in', kind: 'submit', primary: true }], transitions: { sign_in: { target: 'done' } } },
      { name: 'done', complete: 'show' },
    ];
    const created = await t.app.inject({ method: 'POST', url: '/flow_definitions', headers, payload: { project_id: project.id, schema_uri: options.schemaId, flow_definition: { name, user_schema: options.schemaId, purposes: { [name]: 'identify' }, steps } } });
    if (created.statusCode !== 201) throw new Error(`definition ${name}: ${created.body}`);
  }
  return { project, userId: user.json().id };
}
