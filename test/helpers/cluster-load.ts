import { randomBytes } from 'node:crypto';
import { NODE_HEADER } from '../../scripts/cluster/proxy.js';
import { flowJourney, JourneyError } from './flow-journey.js';

/**
 * The mixed load of the cluster test (issue 37 item 2), run through the round-robin proxy: session
 * checks, password logins and registrations through the JSON flow API, user creations, and
 * revocations whose propagation to every node is measured. Every answer is recorded; every write
 * answered 2xx goes into the ledger, to be found again afterwards.
 */
export interface Answer {
  status: number;
  node?: number;
  json: Record<string, unknown>;
}

export interface Op {
  kind: 'session_check' | 'login' | 'register' | 'create_user' | 'revoke';
  /** The request that failed, for a failed operation. */
  failed?: { route: string; status: number; node?: number };
  startedAt: number;
  endedAt: number;
}

export interface Ledger {
  users: Array<{ id?: string; email: string }>;
  /** Sessions created (exchanges) and never revoked. */
  sessions: Array<{ id: string; token: string }>;
  revoked: Array<{ id: string; token: string }>;
  ops: Op[];
  /**
   * ms from a revocation's acknowledgement (204) until each other node's refusal (401) arrived
   * (polled directly): an upper bound on the propagation, since it includes that poll's own
   * round trip through a node under load.
   */
  propagationMs: number[];
  /**
   * The lower bound of the same samples: when the last poll that node still accepted was sent
   * (0 when its first poll was refused). The node learnt of the revocation between the two.
   */
  propagationFloorMs: number[];
}

export const PASSWORD = 'cluster horse battery staple 42';

export async function call(base: string, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Answer> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    const node = response.headers.get(NODE_HEADER);
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // not JSON (a dropped proxy answer): the status tells
    }
    return { status: response.status, node: node === null ? undefined : Number(node), json };
  } catch {
    return { status: 0, json: {} };
  }
}

class Failed extends Error {
  constructor(readonly failure: NonNullable<Op['failed']>) {
    super(`${failure.route} answered ${failure.status}`);
  }
}

function expectStatus(answer: Answer, status: number, route: string): Answer {
  if (answer.status !== status) throw new Failed({ route, status: answer.status, node: answer.node });
  return answer;
}

export interface LoadTarget {
  proxy: string;
  /** Each node's own address, or undefined while it is down (the revocation is polled there). */
  nodes: () => Array<string | undefined>;
  projectId: string;
  secret: string;
  /** The project's user schema (POST /users names it). */
  schema: string;
  /** Users with PASSWORD, for logins. */
  loginEmails: string[];
}

export class MixedLoad {
  readonly ledger: Ledger = { users: [], sessions: [], revoked: [], ops: [], propagationMs: [], propagationFloorMs: [] };
  private readonly run = randomBytes(3).toString('hex');
  private counter = 0;

  constructor(private readonly target: LoadTarget) {}

  private async exchange(handoffToken: string): Promise<void> {
    const { proxy, projectId, secret } = this.target;
    const answer = expectStatus(await call(proxy, 'POST', `/sessions/exchange?project_id=${projectId}`, { token: secret, body: { handoff_token: handoffToken } }), 200, 'POST /sessions/exchange');
    this.ledger.sessions.push({ id: (answer.json.session as { session_id: string }).session_id, token: answer.json.session_token as string });
  }

  private async journey(purpose: 'login' | 'register', values: Record<string, string>): Promise<string> {
    try {
      return (await flowJourney(this.target.proxy, this.target.projectId, purpose, values)).handoffToken;
    } catch (error) {
      if (error instanceof JourneyError) throw new Failed({ route: `POST ${error.path}`, status: error.status });
      throw error;
    }
  }

  private readonly operations: Record<Op['kind'], () => Promise<void>> = {
    session_check: async () => {
      const live = this.ledger.sessions;
      const session = live[Math.floor(Math.random() * live.length)];
      // None yet (the run has just begun, or the database is cut): yield, so the loop never spins.
      if (!session) return void (await new Promise((resolve) => setImmediate(resolve)));
      expectStatus(await call(this.target.proxy, 'GET', '/sessions/me', { token: session.token }), 200, 'GET /sessions/me');
    },
    login: async () => {
      const email = this.target.loginEmails[this.counter % this.target.loginEmails.length];
      await this.exchange(await this.journey('login', { identifier: email, email, password: PASSWORD }));
    },
    register: async () => {
      const email = `reg-${this.run}-${++this.counter}@example.com`;
      const handoff = await this.journey('register', { email, password: PASSWORD, 'name.given': 'Load', 'name.family': 'Register' });
      this.ledger.users.push({ email });
      await this.exchange(handoff);
    },
    create_user: async () => {
      const email = `api-${this.run}-${++this.counter}@example.com`;
      const { proxy, projectId, secret } = this.target;
      const answer = expectStatus(await call(proxy, 'POST', `/users?project_id=${projectId}`, { token: secret, body: { schema: this.target.schema, attributes: { email, name: { given: 'Load', family: 'Api' } } } }), 201, 'POST /users');
      this.ledger.users.push({ id: answer.json.id as string, email });
    },
    revoke: async () => {
      const { proxy, projectId, secret } = this.target;
      const created = expectStatus(await call(proxy, 'POST', '/sessions', { token: secret, body: { project_id: projectId } }), 201, 'POST /sessions');
      // Not among the sessions the checks use: this one is about to be revoked.
      const session = { id: (created.json.session as { session_id: string }).session_id, token: created.json.session_token as string };
      // Every node has it cached before it is revoked, so each must learn of the revocation.
      for (const node of this.target.nodes()) if (node) await call(node, 'GET', '/sessions/me', { token: session.token });
      const revoked = expectStatus(await call(proxy, 'DELETE', `/sessions/${session.id}`, { token: secret }), 204, 'DELETE /sessions/:id');
      // From the acknowledgement on: the node that revoked refuses at once; the others learn it
      // from the change feed, which is what is measured.
      const revokedAt = performance.now();
      this.ledger.revoked.push(session);
      await Promise.all(
        this.target.nodes().map(async (node, index) => {
          if (!node || index === revoked.node) return;
          let acceptedSentAt = revokedAt;
          for (;;) {
            const sentAt = performance.now();
            const answer = await call(node, 'GET', '/sessions/me', { token: session.token });
            if (answer.status === 401) {
              this.ledger.propagationMs.push(performance.now() - revokedAt);
              this.ledger.propagationFloorMs.push(acceptedSentAt - revokedAt);
              return;
            }
            if (answer.status === 200) acceptedSentAt = sentAt;
            // Give up on a node that went away meanwhile, or after the documented 5 s bound
            // (the final check asks every node again).
            if (answer.status === 0 || answer.status === 503 || performance.now() - revokedAt > 5_000) return;
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
        }),
      );
    },
  };

  /** Runs until `until()` says stop: `workers` loops of mixed operations, one loop of revocations. */
  async drive(workers: number, until: () => boolean): Promise<void> {
    const mix: Array<Op['kind']> = ['session_check', 'session_check', 'session_check', 'login', 'register', 'create_user', 'create_user'];
    const loop = async (pick: () => Op['kind'], pauseMs: number) => {
      while (!until()) {
        const kind = pick();
        const op: Op = { kind, startedAt: performance.now(), endedAt: 0 };
        try {
          await this.operations[kind]();
        } catch (error) {
          if (!(error instanceof Failed)) throw error;
          op.failed = error.failure;
        }
        op.endedAt = performance.now();
        this.ledger.ops.push(op);
        if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    };
    await Promise.all([
      ...Array.from({ length: workers }, () => loop(() => mix[Math.floor(Math.random() * mix.length)], 0)),
      loop(() => 'revoke', 50),
    ]);
  }
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
