import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A GitHub account as the user API shows it, with its e-mail addresses. */
export interface GithubAccount {
  id: number;
  login: string;
  name?: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface GithubServer {
  /** the GitHub Enterprise Server base URL to give the provider as its issuer */
  base: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, GithubAccount>;
  /** The account the next authorization signs in as (GitHub's own login page). */
  signInAs(login: string): void;
  /** User API paths (`/user`, `/user/emails`) that answer with the given status until removed. */
  failing: Map<string, number>;
  /** What the token endpoint received, for the checks on the grant. */
  tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * A loopback server speaking GitHub's OAuth 2.0 web flow and user API the way GitHub Enterprise
 * Server lays them out under its base URL: `/login/oauth/authorize` (redirects straight back with
 * a code, as after GitHub's login and consent page), `/login/oauth/access_token` (client secret,
 * single-use code, PKCE S256, JSON when asked), `/api/v3/user` and `/api/v3/user/emails` (bearer).
 * GitHub itself cannot be reached from the tests; this is what the `github` template talks to.
 */
export async function startGithubServer(): Promise<GithubServer> {
  const clientId = 'Iv1.testclient';
  const clientSecret = randomBytes(20).toString('hex');
  const accounts = new Map<string, GithubAccount>();
  const codes = new Map<string, { login: string; redirectUri: string; challenge: string }>();
  const tokens = new Map<string, string>();
  const failing = new Map<string, number>();
  const tokenRequests: URLSearchParams[] = [];
  let nextLogin: string | undefined;

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  const readBody = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    return new URLSearchParams(text);
  };
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://github.test');
      if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
        const login = nextLogin;
        const redirectUri = url.searchParams.get('redirect_uri');
        if (url.searchParams.get('client_id') !== clientId || !redirectUri || !login || url.searchParams.get('code_challenge_method') !== 'S256') {
          return json(response, 400, { error: 'bad authorization request' });
        }
        const code = randomBytes(10).toString('hex');
        codes.set(code, { login, redirectUri, challenge: url.searchParams.get('code_challenge') ?? '' });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        response.writeHead(302, { location: back.toString() });
        return response.end();
      }
      if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
        const form = await readBody(request);
        tokenRequests.push(form);
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        // GitHub answers a bad grant with 200 and an error member.
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(response, 200, { error: 'incorrect_client_credentials' });
        if (!code || code.redirectUri !== form.get('redirect_uri') || createHash('sha256').update(verifier).digest('base64url') !== code.challenge) {
          return json(response, 200, { error: 'bad_verification_code' });
        }
        const token = `gho_${randomBytes(16).toString('hex')}`;
        tokens.set(token, code.login);
        return json(response, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      if (request.method === 'GET' && (url.pathname === '/api/v3/user' || url.pathname === '/api/v3/user/emails')) {
        const login = tokens.get((request.headers.authorization ?? '').replace(/^(Bearer|token) /i, ''));
        const account = login !== undefined ? accounts.get(login) : undefined;
        if (!account) return json(response, 401, { message: 'Bad credentials' });
        const path = url.pathname.slice('/api/v3'.length);
        const status = failing.get(path);
        if (status !== undefined) return json(response, status, { message: 'Server Error' });
        if (path === '/user') return json(response, 200, { id: account.id, login: account.login, name: account.name ?? null, type: 'User' });
        return json(response, 200, account.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })));
      }
      json(response, 404, { message: 'Not Found' });
    })().catch(() => {
      if (!response.headersSent) json(response, 500, { message: 'test server failed' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    clientId,
    clientSecret,
    accounts,
    failing,
    tokenRequests,
    signInAs(login) {
      nextLogin = login;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
