import { post, zflowOf } from './journey.js';

/**
 * Recovery requests for addresses with and without an account, interleaved one at a time, timing
 * only the submit that asks for the code (issue 20 item 6: the two must not be told apart by
 * their timing). Each known address is asked at most 4 times (the per-recipient mail limit is 5
 * per 15 minutes); each unknown address once.
 */
export async function recoveryTiming(baseUrl: string, projectId: string, knownEmails: string[], rounds: number): Promise<{ known: number[]; unknown: number[]; errors: string[] }> {
  const known: number[] = [];
  const unknown: number[] = [];
  const errors: string[] = [];
  const run = Date.now().toString(36);
  const once = async (email: string): Promise<number | string> => {
    const started = await post(`${baseUrl}/flow`, {}, { project_id: projectId, purpose: 'recovery' });
    const cookie = zflowOf(started.setCookie);
    const id = (started.json as { id?: string }).id;
    if (started.status !== 200 || !cookie || !id) return `start answered ${started.status}`;
    const begin = performance.now();
    const asked = await post(`${baseUrl}/flow/${id}/submit`, { cookie: `_zflow=${cookie}` }, { action: 'send_code', fields: { email } });
    const elapsed = performance.now() - begin;
    return asked.status === 200 ? elapsed : `send_code answered ${asked.status}`;
  };
  const limit = Math.min(rounds, knownEmails.length * 4);
  for (let i = 0; i < limit; i++) {
    // Alternate which goes first, so that neither side always follows the other.
    const pair = [knownEmails[i % knownEmails.length], `nobody-${run}-${i}@bench.example`] as const;
    const order = i % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const result = await once(pair[side]);
      if (typeof result === 'string') errors.push(result);
      else (side === 0 ? known : unknown).push(result);
    }
  }
  return { known, unknown, errors };
}
