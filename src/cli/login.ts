import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * `gatehouse login` (docs/operators.md "Signing in from the command line"): signs an operator in
 * with the OAuth 2.0 device authorization grant (RFC 8628) as the system project's public
 * `gatehouse-cli` client, at AAL2 like the console, and stores the tokens in a file only the
 * user can read. It talks to a running Gatehouse over HTTP only (no database), so it works from
 * any machine. The same protocol as `deviceLogin()` of @gatehouse/client, which this package
 * cannot depend on.
 */

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Operators sign in at AAL2, as in the console (docs/console.md). */
export const OPERATOR_ACR = 'urn:nist:aal:2';
const DEFAULT_SCOPE = 'openid offline_access';

export interface LoginOptions {
  /** the Gatehouse to sign in to (its public URL) */
  url: string;
  /** default: the instance's `gatehouse-cli` client (GET /operators/cli_client) */
  clientId?: string;
  scope?: string;
  credentialsFile: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  /** where the instructions go (stderr) */
  say?: (text: string) => void;
  now?: () => Date;
}

/** What one sign-in stores per Gatehouse URL in the credentials file. */
export interface StoredLogin {
  client_id: string;
  token_type: string;
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope: string;
  expires_at: string;
  obtained_at: string;
}

/** `GATEHOUSE_CREDENTIALS`, else `$XDG_CONFIG_HOME/gatehouse/credentials.json`, else `~/.config/gatehouse/credentials.json`. */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GATEHOUSE_CREDENTIALS) return env.GATEHOUSE_CREDENTIALS;
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'gatehouse', 'credentials.json');
}

/** A failure the command reports in one line (no stack). */
export class LoginError extends Error {}

async function json(response: Response): Promise<Record<string, unknown>> {
  return ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
}

const refusal = (what: string, body: Record<string, unknown>, status: number) =>
  new LoginError(`${what}: ${String(body.error ?? body.code ?? `HTTP ${status}`)}${body.error_description ?? body.message ? ` (${String(body.error_description ?? body.message)})` : ''}`);

/** Signs in and stores the tokens; returns what was stored and where. */
export async function login(options: LoginOptions): Promise<{ stored: StoredLogin; file: string; url: string }> {
  const url = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const say = options.say ?? ((text: string) => process.stderr.write(`${text}\n`));
  const now = options.now ?? (() => new Date());
  const call = async (path: string, init?: RequestInit) => {
    try {
      return await doFetch(`${url}${path}`, init);
    } catch (error) {
      throw new LoginError(`cannot reach ${url} (${(error as Error).cause ? String((error as { cause: unknown }).cause) : (error as Error).message})`);
    }
  };
  let clientId = options.clientId;
  if (!clientId) {
    const found = await call('/operators/cli_client');
    const body = await json(found);
    if (!found.ok || typeof body.client_id !== 'string') throw refusal(`${url} did not name its CLI client`, body, found.status);
    clientId = body.client_id;
  }
  const form = (values: Record<string, string>): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(values).toString() });
  const started = await call('/auth/device_authorization', form({ client_id: clientId, scope: options.scope ?? DEFAULT_SCOPE, acr_values: OPERATOR_ACR }));
  const codes = await json(started);
  if (!started.ok) throw refusal('device authorization refused', codes, started.status);
  say(
    `To sign in, open ${String(codes.verification_uri)} and enter the code ${String(codes.user_code)}\n` +
      `  (or open ${String(codes.verification_uri_complete)}). Check that the page names "gatehouse-cli".\n` +
      `  The code works for ${Math.round(Number(codes.expires_in) / 60)} minutes. Waiting…`,
  );
  let interval = Math.max(1, Number(codes.interval) || 5);
  for (;;) {
    // RFC 8628 §3.5: wait the interval before every poll, 5 s more after each slow_down.
    await sleep(interval * 1000);
    const polled = await call('/auth/token', form({ grant_type: DEVICE_GRANT, device_code: String(codes.device_code), client_id: clientId }));
    const body = await json(polled);
    if (polled.ok) {
      const obtained = now();
      const stored: StoredLogin = {
        client_id: clientId,
        token_type: String(body.token_type),
        access_token: String(body.access_token),
        ...(typeof body.refresh_token === 'string' ? { refresh_token: body.refresh_token } : {}),
        ...(typeof body.id_token === 'string' ? { id_token: body.id_token } : {}),
        scope: String(body.scope),
        expires_at: new Date(obtained.getTime() + Number(body.expires_in) * 1000).toISOString(),
        obtained_at: obtained.toISOString(),
      };
      await store(options.credentialsFile, url, stored);
      return { stored, file: options.credentialsFile, url };
    }
    if (body.error === 'authorization_pending') continue;
    if (body.error === 'slow_down') {
      const told = Number((body.details as Record<string, unknown> | undefined)?.interval);
      interval = Number.isFinite(told) && told > interval ? told : interval + 5;
      continue;
    }
    throw refusal('sign-in failed', body, polled.status);
  }
}

/** Writes the file readable by its owner only (0600 in a 0700 folder), replacing it in one rename; other URLs' entries stay. */
async function store(file: string, url: string, entry: StoredLogin): Promise<void> {
  let all: Record<string, StoredLogin> = {};
  try {
    all = JSON.parse(await readFile(file, 'utf8')) as Record<string, StoredLogin>;
  } catch {
    all = {};
  }
  all[url] = entry;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}
