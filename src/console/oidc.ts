import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, type JWTPayload } from 'jose';
import type { ConsoleClient } from '../operators/console-access.js';
import type { ConsoleSession, LoginState } from './session.js';

const random = () => randomBytes(32).toString('base64url');

/** The assurance level the console asks of operators. */
export const CONSOLE_ACR = 'urn:nist:aal:2';

/** A fresh sign-in: PKCE verifier, state and nonce (RFC 7636, OIDC Core §3.1.2.1). */
export function newLogin(now: Date, extra: Pick<LoginState, 'setup' | 'next'> = {}): LoginState {
  return { startedAt: now.getTime(), verifier: random(), state: random(), nonce: random(), ...extra };
}

/**
 * Where the browser goes to sign in: the instance's own authorization endpoint with the console's
 * client. A sign-in asks for AAL2 (`acr_values`), a set-up signs up (`prompt=create`), and a
 * destructive action asks for a sign-in in the last five minutes (`max_age`).
 */
export function authorizeUrl(publicUrl: string, client: ConsoleClient, login: LoginState, options: { maxAge?: number; lang?: string } = {}): string {
  const url = new URL(`${publicUrl}/auth/authorize`);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid',
    state: login.state,
    nonce: login.nonce,
    code_challenge: createHash('sha256').update(login.verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: login.setup ? 'create' : undefined,
    // Operators sign in at AAL2 (a passkey, or a password with a second factor); the set-up's
    // sign-up may be a password alone, and the console then asks for a second factor.
    acr_values: login.setup ? undefined : CONSOLE_ACR,
    max_age: options.maxAge !== undefined ? String(options.maxAge) : undefined,
    ui_locales: options.lang,
  };
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** The token endpoint refused the code, or its answer was not what the console asked for. */
export class CodeRefused extends Error {}

/**
 * Redeems the code at the instance's token endpoint, in process. The ID token comes straight from
 * our own endpoint over no network, so its signature proves nothing more; its audience, nonce
 * and issuer are still checked, as a client must.
 */
export async function redeemCode(app: FastifyInstance, publicUrl: string, client: ConsoleClient, login: LoginState, code: string, now: Date): Promise<ConsoleSession> {
  const grant = { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, code_verifier: login.verifier };
  return tokenRequest(app, publicUrl, client, grant, now, (claims) => claims.nonce === login.nonce);
}

/**
 * A new access token for the session's refresh token (rotated: the old one is used up). The
 * refresh token dies with the operator's Gatehouse session, so a revoked session ends the
 * console's too. Refused: CodeRefused, and the console signs in again.
 */
export async function refreshSession(app: FastifyInstance, publicUrl: string, client: ConsoleClient, session: ConsoleSession, now: Date): Promise<ConsoleSession> {
  const grant = { grant_type: 'refresh_token', refresh_token: session.refreshToken, client_id: client.clientId };
  return tokenRequest(app, publicUrl, client, grant, now, (claims) => claims.sub === session.userId);
}

async function tokenRequest(app: FastifyInstance, publicUrl: string, client: ConsoleClient, grant: Record<string, string>, now: Date, belongs: (claims: JWTPayload) => boolean): Promise<ConsoleSession> {
  const response = await app.inject({ method: 'POST', url: '/auth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(grant).toString() });
  if (response.statusCode !== 200) throw new CodeRefused(`token endpoint: ${response.statusCode}`);
  const tokens = response.json() as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; id_token?: unknown };
  if (typeof tokens.access_token !== 'string' || typeof tokens.refresh_token !== 'string' || typeof tokens.id_token !== 'string' || typeof tokens.expires_in !== 'number') {
    throw new CodeRefused('token endpoint: incomplete answer');
  }
  const claims = decodeJwt(tokens.id_token);
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== publicUrl || !audience.includes(client.clientId) || typeof claims.sub !== 'string' || !belongs(claims)) throw new CodeRefused('id token: wrong issuer, audience, nonce or subject');
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: now.getTime() + tokens.expires_in * 1000,
    authTime: typeof claims.auth_time === 'number' ? claims.auth_time : Math.floor(now.getTime() / 1000),
    userId: claims.sub,
    idToken: tokens.id_token,
    acr: typeof claims.acr === 'string' ? claims.acr : undefined,
  };
}
