import type * as Oidc from 'openid-client';
import type { Clock } from '../core/clock.js';
import { outboundFetch } from '../core/outbound-fetch.js';
import type { OutboundPolicy } from '../core/outbound-target.js';
import type { SsoProviderRow } from './store.js';
import { githubEndpoints } from './templates.js';

/** A provider as the flow side reads it: the stored row with its opened secret. */
export type OpenedProvider = SsoProviderRow & { client_secret?: string };

/** What one sign-in upstream proved: the identity and the claims the mapping reads. */
export interface UpstreamProfile {
  subject: string;
  email?: string;
  /** true only when the provider itself said so (`email_verified`, GitHub's verified primary address) */
  emailVerified: boolean;
  claims: Record<string, unknown>;
}

/** What ties a callback to the request that started it. */
export interface CallbackChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/**
 * Why an upstream sign-in failed, for the log: names the step and the library's error code,
 * never a token or a code.
 */
export class UpstreamFailure extends Error {
  constructor(
    readonly reason: string,
    readonly upstreamError?: string,
  ) {
    super(reason);
  }
}

/** Every upstream call gives up after this long, so an upstream that is down answers quickly. */
export const UPSTREAM_TIMEOUT_SECONDS = 5;
/** Discovery documents are reused this long (a changed provider row is discovered again at once). */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;

/**
 * openid-client with oauth4webapi (about 1 MB of heap) is imported at the first upstream sign-in:
 * an instance without SSO providers does not hold it.
 */
const openidClient = (): Promise<typeof Oidc> => import('openid-client');

/** A sign-in's fresh state, nonce and PKCE verifier. */
export async function newCallbackChecks(): Promise<CallbackChecks> {
  const oidc = await openidClient();
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

/**
 * The relying-party side of upstream SSO (DESIGN §4.14) on panva's `openid-client`: discovery,
 * the authorization URL (code flow, PKCE S256, state, nonce) and the callback's code exchange
 * with every check the library makes (state, nonce, issuer, audience, signature, expiry).
 * GitHub is OAuth 2.0 with its user API instead of an ID token.
 *
 * Every call (discovery, token endpoint, userinfo, JWKS, GitHub's user API) goes through the
 * SSRF-safe outbound client (`outboundFetch`, src/core/outbound-fetch.ts): an issuer, or an
 * endpoint its discovery document names, on a private, loopback or link-local address is refused
 * unless `outbound` allows it (a loopback public URL reaches loopback hosts; the operator's
 * GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1 reaches any).
 */
export class UpstreamClient {
  private readonly configs = new Map<string, { config: Promise<Oidc.Configuration>; until: number }>();
  private readonly timeoutSeconds: number;
  private readonly fetch: Oidc.CustomFetch;

  constructor(
    private readonly clock: Clock,
    options: { timeoutSeconds?: number; outbound?: OutboundPolicy } = {},
  ) {
    this.timeoutSeconds = options.timeoutSeconds ?? UPSTREAM_TIMEOUT_SECONDS;
    // openid-client passes its own signal (the timeout above); the client's deadline is a backstop.
    this.fetch = outboundFetch({ ...options.outbound, timeoutMs: (this.timeoutSeconds + 1) * 1000, userAgent: 'Gatehouse-SSO/1' });
  }

  async authorizationUrl(provider: OpenedProvider, redirectUri: string, checks: CallbackChecks): Promise<string> {
    const oidc = await openidClient();
    const config = await this.configuration(provider);
    const params: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: provider.scopes.join(' '),
      state: checks.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    };
    if (provider.template !== 'github') params.nonce = checks.nonce;
    // Apple sends the name and e-mail only by form_post (answered by POST /flow/sso/callback).
    if (provider.template === 'apple') params.response_mode = 'form_post';
    return oidc.buildAuthorizationUrl(config, params).href;
  }

  /** Exchanges the callback's code and returns the proven identity; throws `UpstreamFailure`. */
  async profile(provider: OpenedProvider, callbackUrl: URL, checks: CallbackChecks): Promise<UpstreamProfile> {
    const oidc = await openidClient();
    const config = await this.configuration(provider);
    const github = provider.template === 'github';
    let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        expectedState: checks.state,
        pkceCodeVerifier: checks.codeVerifier,
        ...(github ? { idTokenExpected: false } : { expectedNonce: checks.nonce, idTokenExpected: true }),
      });
    } catch (error) {
      throw failure('code exchange', error);
    }
    if (github) return this.githubProfile(config, tokens.access_token, provider.issuer);
    const idToken = tokens.claims();
    if (!idToken) throw new UpstreamFailure('code exchange: no ID token');
    let claims: Record<string, unknown> = { ...idToken };
    const wanted = [...Object.values(provider.claims), 'email'];
    if (wanted.some((claim) => claims[claim] === undefined) && config.serverMetadata().userinfo_endpoint) {
      try {
        claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...claims };
      } catch (error) {
        throw failure('userinfo', error);
      }
    }
    return {
      subject: idToken.sub,
      ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
      // Apple sends the boolean as a string.
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      claims,
    };
  }

  private async githubProfile(config: Oidc.Configuration, accessToken: string, enterpriseBase: string | null): Promise<UpstreamProfile> {
    const oidc = await openidClient();
    const endpoints = githubEndpoints(enterpriseBase);
    const read = async (url: string) => {
      const response = await oidc.fetchProtectedResource(config, accessToken, new URL(url), 'GET', undefined, new Headers({ accept: 'application/vnd.github+json' }));
      if (!response.ok) throw new UpstreamFailure(`github user API: HTTP ${response.status}`);
      return response.json() as Promise<unknown>;
    };
    try {
      const user = (await read(endpoints.userEndpoint)) as { id?: unknown; name?: unknown; login?: unknown };
      if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new UpstreamFailure('github user API: no id');
      const emails = (await read(endpoints.emailsEndpoint)) as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>;
      const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true && typeof e.email === 'string') : undefined;
      const [given, ...family] = typeof user.name === 'string' ? user.name.split(' ') : [];
      const claims: Record<string, unknown> = { ...user, sub: String(user.id), given_name: given, family_name: family.join(' ') || undefined };
      if (primary) claims.email = primary.email;
      return { subject: String(user.id), ...(primary ? { email: primary.email as string } : {}), emailVerified: primary?.verified === true, claims };
    } catch (error) {
      throw error instanceof UpstreamFailure ? error : failure('github user API', error);
    }
  }

  /** The provider's configuration, discovered once per row version and reused for a while. */
  private async configuration(provider: OpenedProvider): Promise<Oidc.Configuration> {
    const key = [provider.project_id, provider.id, provider.updated_at.getTime(), provider.template, provider.issuer, provider.client_id, provider.client_secret_sealed].join('\0');
    const now = this.clock.now().getTime();
    const cached = this.configs.get(key);
    if (cached && cached.until > now) return cached.config;
    const config = this.build(provider);
    this.configs.set(key, { config, until: now + DISCOVERY_TTL_MS });
    // A failed discovery is not kept: the next sign-in tries again.
    config.catch(() => this.configs.delete(key));
    if (this.configs.size > 1000) this.configs.delete(this.configs.keys().next().value!);
    return config;
  }

  private async build(provider: OpenedProvider): Promise<Oidc.Configuration> {
    const oidc = await openidClient();
    const auth = provider.client_secret !== undefined ? oidc.ClientSecretPost(provider.client_secret) : oidc.None();
    if (provider.template === 'github') {
      const endpoints = githubEndpoints(provider.issuer);
      const config = new oidc.Configuration({ issuer: endpoints.issuer, authorization_endpoint: endpoints.authorizationEndpoint, token_endpoint: endpoints.tokenEndpoint }, provider.client_id, undefined, auth);
      config.timeout = this.timeoutSeconds;
      config[oidc.customFetch] = this.fetch;
      // http is accepted by the provider API only on loopback hosts (development and tests).
      if (endpoints.issuer.startsWith('http:')) oidc.allowInsecureRequests(config);
      return config;
    }
    const issuer = new URL(provider.issuer!);
    // http is accepted by the provider API only on loopback hosts (development and tests).
    const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    try {
      const config = await oidc.discovery(issuer, provider.client_id, undefined, auth, { timeout: this.timeoutSeconds, execute, [oidc.customFetch]: this.fetch });
      // discovery() keeps the option on the Configuration (openid-client 6.8); said again, so that a
      // library change cannot send the token, userinfo and JWKS calls through a bare fetch.
      config[oidc.customFetch] = this.fetch;
      return config;
    } catch (error) {
      throw failure('discovery', error);
    }
  }
}

/** A library error as a log reason: its class, code and message (they carry no token). */
function failure(step: string, error: unknown): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error;
  const e = error as { name?: string; code?: string; message?: string; error?: string; cause?: { name?: string; code?: string } };
  const upstreamError = typeof e.error === 'string' ? e.error : undefined;
  const detail = [e.name, e.code, e.message, e.cause?.code ?? e.cause?.name].filter(Boolean).join(': ');
  return new UpstreamFailure(`${step}: ${detail || 'failed'}`, upstreamError);
}
