import type { FastifyInstance } from 'fastify';

/** The operator's token no longer works (expired, revoked, role gone): sign in again. */
export class ConsoleSignInNeeded extends Error {}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The console's only way to the data: the public management API, called in process with the
 * operator's token (`app.inject` runs the whole pipeline: authentication, tenancy, validation and
 * the response schemas), so the console can do nothing the API would not let the operator do.
 */
export class ConsoleApi {
  constructor(
    private readonly app: FastifyInstance,
    private readonly token: string,
    /** the browser's address, so the API's limits and audit see the operator, not the loopback */
    private readonly remoteAddress: string,
  ) {}

  async call(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<ApiAnswer> {
    const response = await this.app.inject({
      method,
      url,
      remoteAddress: this.remoteAddress,
      headers: { ...headers, authorization: `Bearer ${this.token}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
    if (response.statusCode === 401) throw new ConsoleSignInNeeded();
    let body: Record<string, unknown> = {};
    if (response.body) {
      try {
        body = JSON.parse(response.body) as Record<string, unknown>;
      } catch {
        body = { code: 'internal', message: response.body.slice(0, 200) };
      }
    }
    return { status: response.statusCode, body };
  }

  /** The body of a 2xx answer, else an ApiRefusal with the API's error body (the page shows it). */
  async data<T>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<T> {
    const answer = await this.call(method, url, payload);
    if (answer.status >= 300) throw new ApiRefusal(answer);
    return answer.body as T;
  }
}

/** The API refused: the page shows its status, code, message and field errors. */
export class ApiRefusal extends Error {
  constructor(readonly answer: ApiAnswer) {
    super(typeof answer.body.message === 'string' ? answer.body.message : `HTTP ${answer.status}`);
  }

  get code(): string {
    return typeof this.answer.body.code === 'string' ? this.answer.body.code : 'internal';
  }

  /** `details.errors` of a 400: `{path, message}` per field. */
  get fieldErrors(): Array<{ path: string; message: string }> {
    const details = this.answer.body.details as { errors?: unknown } | undefined;
    return Array.isArray(details?.errors) ? details.errors.filter((e): e is { path: string; message: string } => typeof e?.path === 'string' && typeof e?.message === 'string') : [];
  }

  /** What the refused form shows (`FormProblem` of ./pages/parts.ts): the message and the field errors. */
  get problem(): { message: string; errors: Array<{ path: string; message: string }> } {
    return { message: this.message, errors: this.fieldErrors };
  }
}
