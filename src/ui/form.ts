import type { ChallengeResponse } from '../flows/methods/passkey/view.js';

/** A page's form post, read leniently: anything odd becomes a value the runtime refuses with a field error. */
export interface FormInput {
  action: string;
  fields: Record<string, string>;
  captcha?: string;
  challengeResponse?: ChallengeResponse;
  /** an SSO button: the provider to sign in with (the action is its `sso` action) */
  ssoProvider?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The passkey answer the script put in the form. Anything that is not `{challenge_id, method,
 * proof}` becomes an answer to no challenge, which the runtime refuses with a fresh one.
 */
function challengeResponseOf(answer: string): ChallengeResponse {
  let parsed: unknown;
  try {
    parsed = answer.length <= 32_768 ? JSON.parse(answer) : undefined;
  } catch {
    parsed = undefined;
  }
  if (isObject(parsed) && typeof parsed.challenge_id === 'string' && typeof parsed.method === 'string' && isObject(parsed.proof)) {
    return { challenge_id: parsed.challenge_id.slice(0, 100), method: parsed.method.slice(0, 50), proof: parsed.proof };
  }
  return { challenge_id: '', method: '', proof: {} };
}

const MAX_FIELDS = 50;

export function readForm(body: unknown): FormInput {
  const params = new URLSearchParams(typeof body === 'string' ? body : '');
  // No prototype: `__proto__` or `constructor` are plain (unknown) field names here.
  const fields: Record<string, string> = Object.create(null);
  let count = 0;
  for (const [key, value] of params) {
    if (!key.startsWith('f.') || key.length > 202 || key.slice(2) in fields) continue;
    if (++count > MAX_FIELDS) break;
    fields[key.slice(2)] = value;
  }
  // A navigate button (`navigate=<action>`) sends the typed values along, as browsers do; the
  // runtime refuses fields on navigate actions, so they are dropped here.
  const navigate = params.get('navigate');
  if (navigate) return { action: navigate.slice(0, 100), fields: {} };
  // An SSO button (`sso=<action>:<provider>`) needs no field either.
  const sso = params.get('sso');
  if (sso) {
    const at = sso.lastIndexOf(':');
    return { action: sso.slice(0, Math.max(0, at)).slice(0, 100), fields: {}, ssoProvider: sso.slice(at + 1, at + 65) };
  }
  const action = (params.get('action') ?? '').slice(0, 100);
  const captcha = params.get('captcha') || undefined;
  const answer = params.get('challenge_response');
  const challengeResponse = answer ? challengeResponseOf(answer) : undefined;
  return { action, fields, captcha: captcha?.slice(0, 4096), challengeResponse };
}
