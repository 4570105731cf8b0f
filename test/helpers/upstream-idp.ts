/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** What an upstream account tells about itself (standard claims). */
export interface UpstreamAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

export interface UpstreamIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, UpstreamAccount>;
  /** The account the next authorization signs in as; undefined: the user cancels (access_denied). */
  signInAs(subject: string | undefined): void;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (panva's `oidc-provider`) on loopback HTTP, as the upstream of SSO tests:
 * one confidential client for Gatehouse, accounts from a map, and an interaction endpoint that
 * signs in as `signInAs` says and grants the requested scopes (no pages).
 */
export async function startUpstreamIdp(redirectUri: string): Promise<UpstreamIdp> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, UpstreamAccount>();
  let next: string | undefined;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [{ client_id: 'gatehouse', client_secret: 'upstream-client-secret', redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_post' }],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'upstream-1', alg: 'RS256', use: 'sig' }] },
    findAccount: async (_ctx: unknown, sub: string) => (accounts.has(sub) ? { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) } : undefined),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['upstream-cookie-key'] },
    pkce: { required: () => true },
  });
  const callback = provider.callback();
  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    const accountId = next;
    if (accountId === undefined) {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user cancelled.' }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  };
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interact(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    clientId: 'gatehouse',
    clientSecret: 'upstream-client-secret',
    accounts,
    signInAs: (subject) => {
      next = subject;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A fetch answer whose JSON the test reads as it expects it (assertions check the shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };

/** A browser over real HTTP: one cookie jar per host (paths ignored), redirects followed by hand. */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string | undefined): void {
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    if (value === undefined) cookies.delete(name);
    else cookies.set(name, value);
    this.jar.set(host, cookies);
  }

  async fetch(url: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<TestResponse> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = this.jar.get(target.host);
    if (cookies && cookies.size > 0) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.json !== undefined ? JSON.stringify(init.json) : undefined, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      this.setCookie(target.host, name, expired ? undefined : value);
    }
    return response;
  }

  /** GETs `url` and follows redirects until one leaves for `stopAt` (an origin): that location is returned. */
  async followUntil(url: string, stopAt: string): Promise<string> {
    let current = url;
    for (let hop = 0; hop < 20; hop++) {
      if (current.startsWith(stopAt)) return current;
      const response = await this.fetch(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) throw new Error(`stopped at ${current}: ${response.status} ${await response.text()}`);
      current = new URL(location, current).toString();
    }
    throw new Error('too many redirects');
  }
}
