/** A page's form post, read leniently: anything odd becomes a value the runtime refuses with a field error. */
export interface FormInput {
  action: string;
  fields: Record<string, string>;
  captcha?: string;
  challengeResponse?: unknown;
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
  const action = (params.get('action') ?? '').slice(0, 100);
  const captcha = params.get('captcha') || undefined;
  let challengeResponse: unknown;
  const answer = params.get('challenge_response');
  if (answer) {
    try {
      challengeResponse = answer.length <= 32_768 ? JSON.parse(answer) : undefined;
    } catch {
      challengeResponse = undefined;
    }
  }
  return { action, fields, captcha: captcha?.slice(0, 4096), challengeResponse };
}
