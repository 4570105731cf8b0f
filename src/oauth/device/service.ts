import { randomInt } from 'node:crypto';
import { addMs, MINUTE, type Clock } from '../../core/clock.js';
import { digestsEqual, hmacBase64Url, randomSecret, sha256Hex } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import type { IdGenerator } from '../../core/ids.js';
import type { KeyRing } from '../../core/keys.js';
import { isUniqueViolation } from '../../db/sql.js';
import type { Session } from '../../sessions/view.js';
import { AuthorizeBudgetSpent, meetsAcr, type AuthorizeBudget } from '../authorize.js';
import type { AuthenticatedClient, Form } from '../client-auth.js';
import { DEVICE_CODE_GRANT } from '../clients.js';
import { oauthError } from '../errors.js';
import type { TokenResponse } from '../tokens.js';
import { userScopes, type UserTokenService } from '../user-tokens.js';
import type { DeviceCodeRow, DeviceRequestView, DeviceStore, UserCodeLookup } from './store.js';

export const DEVICE_CODE_PREFIX = 'gh_dc_';
/** RFC 8628 §6.1: base-20, no vowels (no words), no easily confused characters. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;
const USER_CODE_PURPOSE = 'oauth.device.user-code';

export interface DeviceOptions {
  /** how long a device code and its user code live (RFC 8628 `expires_in`) */
  lifetimeMs: number;
  /** the first polling interval (RFC 8628 `interval`), in seconds */
  intervalSeconds: number;
  /** wrong user codes one IP may type per minute at /ui/device, across the instance */
  wrongCodesPerMinute: number;
}

export const DEFAULT_DEVICE_OPTIONS: DeviceOptions = { lifetimeMs: 10 * MINUTE, intervalSeconds: 5, wrongCodesPerMinute: 10 };

/** RFC 8628 §3.2. */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** Eight characters of the base-20 alphabet, each drawn uniformly (20^8 ≈ 2.6·10^10 codes). */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** How people see a user code: `XXXX-XXXX`. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** What a person typed, as stored codes are compared: case-insensitive, dashes and spaces ignored. */
export const normalizeUserCode = (typed: string) => typed.slice(0, 64).replace(/[\s-]+/g, '').toUpperCase();

export interface DeviceGrantDeps {
  store: DeviceStore;
  userTokens: UserTokenService;
  sessions: { isAlive(sessionId: string): Promise<boolean> };
  clock: Clock;
  ids: IdGenerator;
  keys: KeyRing;
  /** the per-IP budget of unauthenticated writes that /auth/authorize takes too (DESIGN §4.6a) */
  budget: AuthorizeBudget;
  options?: DeviceOptions;
}

/** What approving found: done, the request no longer pending, or a session short of the client's `acr_values`. */
export type Approval = 'approved' | 'gone' | 'too_weak';

/**
 * The OAuth 2.0 device authorization grant (RFC 8628, DESIGN §4.19): the device authorization
 * endpoint, the user's answer from the verification page (/ui/device), and the token endpoint's
 * polling, whose tokens come from the code flow's minting (`UserTokenService.issueForSession`).
 */
export class DeviceGrantService {
  readonly options: DeviceOptions;

  constructor(private readonly deps: DeviceGrantDeps) {
    this.options = deps.options ?? DEFAULT_DEVICE_OPTIONS;
  }

  /** Only registered clients that named the grant in their `grant_types` may use it (a project's restriction to named clients). */
  private assertAllowed(client: AuthenticatedClient): void {
    if (client.kind !== 'oidc' || !client.grantTypes?.includes(DEVICE_CODE_GRANT)) {
      throw oauthError('unauthorized_client', `This client is not registered for the device authorization grant (grant_types must name ${DEVICE_CODE_GRANT}).`);
    }
  }

  /** The stored forms of a user code: an HMAC under every key of the ring (a rotation keeps live codes working). */
  private userCodeHashes(code: string): string[] {
    return this.deps.keys.all(USER_CODE_PURPOSE).map((key) => hmacBase64Url(key, code));
  }

  /** POST /auth/device_authorization (RFC 8628 §3.1): a device code for the client, a user code for the person. */
  async authorize(client: AuthenticatedClient, form: Form, issuer: string, ip: string): Promise<DeviceAuthorizationResponse> {
    this.assertAllowed(client);
    const scopes = userScopes(form.scope, undefined, ['openid']);
    const acrValues = form.acr_values?.trim() || undefined;
    if (acrValues !== undefined && (acrValues.length > 200 || /[^\x20-\x7e]/.test(acrValues))) {
      throw oauthError('invalid_request', 'acr_values is malformed.', { parameter: 'acr_values' });
    }
    const gate = this.deps.budget.windows.gate(client.projectId, ip, await this.deps.budget.limit(client.projectId));
    // 20^8 codes: two live requests may draw the same one. The unique index says so; draw again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const deviceCode = randomSecret(DEVICE_CODE_PREFIX);
      const userCode = newUserCode();
      const row = this.newRow(client, scopes, acrValues, sha256Hex(deviceCode), this.userCodeHashes(userCode)[0]);
      try {
        await (gate ? gate.write([this.deps.store.insertQuery(row, gate.when)]) : this.deps.store.insert(row));
      } catch (error) {
        if (isUniqueViolation(error)) continue;
        if (error instanceof AuthorizeBudgetSpent) {
          throw new AppError('auth.rate_limited', `Too many device authorization requests from this address; try again in ${error.retryAfterSeconds} seconds.`, { retry_after_seconds: error.retryAfterSeconds }, { 'retry-after': String(error.retryAfterSeconds) });
        }
        throw error;
      }
      const verificationUri = `${issuer}/ui/device`;
      return {
        device_code: deviceCode,
        user_code: formatUserCode(userCode),
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
        expires_in: Math.floor(this.options.lifetimeMs / 1000),
        interval: this.options.intervalSeconds,
      };
    }
    throw new Error('no free user code after 5 draws');
  }

  private newRow(client: AuthenticatedClient, scopes: string[], acrValues: string | undefined, deviceCodeHash: string, userCodeHash: string): DeviceCodeRow {
    const now = this.deps.clock.now();
    return {
      id: this.deps.ids.next('dev'),
      project_id: client.projectId,
      client_id: client.clientId,
      device_code_hash: deviceCodeHash,
      user_code_hash: userCodeHash,
      scopes,
      acr_values: acrValues ?? null,
      status: 'pending',
      interval_seconds: this.options.intervalSeconds,
      created_at: now,
      expires_at: addMs(now, this.options.lifetimeMs),
      last_polled_at: null,
      poll_outcome: null,
      session_id: null,
      user_id: null,
      auth_time: null,
      decided_at: null,
    };
  }

  /** A code typed at /ui/device, under the IP's wrong-code budget (taken by the statement that looks it up). */
  async lookup(typed: string, ip: string): Promise<UserCodeLookup> {
    return this.deps.store.lookupUserCode(this.userCodeHashes(normalizeUserCode(typed)), ip, this.options.wrongCodesPerMinute, this.deps.clock.now());
  }

  /** A request that still waits for the user's answer (pending, unexpired), with its client's name. */
  async pending(id: string): Promise<DeviceRequestView | undefined> {
    const row = id.length <= 64 ? await this.deps.store.view(id) : undefined;
    return row && row.status === 'pending' && row.expires_at.getTime() > this.deps.clock.now().getTime() ? row : undefined;
  }

  /** Whether a signed-in session may answer the request: its project, and the level `acr_values` asks for. */
  sessionFits(request: DeviceCodeRow, session: Session): boolean {
    return session.project_id === request.project_id && session.state === 'active' && session.user_id !== undefined && meetsAcr(session.assurance_levels, request.acr_values ?? undefined);
  }

  /** The user approves: the device's tokens will carry this session. */
  async approve(request: DeviceCodeRow, session: Session): Promise<Approval> {
    if (!this.sessionFits(request, session)) return 'too_weak';
    const authTime = session.factors.map((factor) => new Date(factor.verified_at)).sort((a, b) => b.getTime() - a.getTime())[0] ?? null;
    const decided = await this.deps.store.decide(request.id, { approved: true, sessionId: session.session_id, userId: session.user_id!, authTime }, this.deps.clock.now());
    return decided ? 'approved' : 'gone';
  }

  async deny(request: DeviceCodeRow): Promise<boolean> {
    return this.deps.store.decide(request.id, { approved: false }, this.deps.clock.now());
  }

  /** grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 §3.4, §3.5). */
  async poll(client: AuthenticatedClient, form: Form, issuer: string): Promise<TokenResponse> {
    this.assertAllowed(client);
    const deviceCode = form.device_code;
    if (!deviceCode) throw oauthError('invalid_request', 'The "device_code" parameter is required.', { parameter: 'device_code' });
    const hash = sha256Hex(deviceCode);
    const row = deviceCode.startsWith(DEVICE_CODE_PREFIX) && deviceCode.length <= 100 ? await this.deps.store.findByDeviceCode(hash) : undefined;
    if (!row || !digestsEqual(row.device_code_hash, hash) || row.client_id !== client.clientId) throw oauthError('invalid_grant', 'The device code is unknown.');
    const polled = await this.deps.store.poll(row.id, client.clientId, this.deps.clock.now());
    switch (polled?.poll_outcome) {
      case 'issued':
        break;
      case 'pending':
        throw oauthError('authorization_pending', 'The user has not answered yet; poll again after the interval.', { interval: polled.interval_seconds });
      case 'slow_down':
        throw oauthError('slow_down', `Polled too often; wait ${polled.interval_seconds} seconds between polls from now on.`, { interval: polled.interval_seconds });
      case 'denied':
        throw oauthError('access_denied', 'The user denied the device.');
      case 'expired':
        throw oauthError('expired_token', 'The device code has expired; start again.');
      default:
        throw oauthError('invalid_grant', 'The device code was already used.');
    }
    if (!polled.session_id || !polled.user_id || !(await this.deps.sessions.isAlive(polled.session_id))) {
      throw oauthError('invalid_grant', 'The session that approved the device has ended.');
    }
    const grant = { projectId: polled.project_id, sessionId: polled.session_id, userId: polled.user_id, authTime: polled.auth_time ?? undefined };
    return this.deps.userTokens.issueForSession(client.clientId, grant, polled.scopes, issuer, { familyId: polled.id, refresh: client.grantTypes!.includes('refresh_token') });
  }

  /** Forgets requests that expired before `before`. */
  async sweep(before: Date): Promise<number> {
    return this.deps.store.deleteExpired(before);
  }
}
