import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementsOf, watchStatements } from '../../../../test/helpers/statements.js';
import type { SoftwareAuthenticator } from '../../../../test/helpers/webauthn-authenticator.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from './passkey-flow-test-kit.js';

/**
 * What one usernameless passkey sign-in costs the database (issue 11: a passkey journey has no
 * password hash, so its cost is the flow engine's own). Counted on a warm process, every
 * statement including BEGIN/COMMIT; `npm run bench -- --only passkey_journey` measures its CPU.
 */
describe('database statements of a passkey sign-in', () => {
  let kit: PasskeyFlowKit;
  let authenticator: SoftwareAuthenticator;

  beforeAll(async () => {
    await watchStatements();
    kit = await passkeyFlowKit();
    for (let i = 0; i < 1000 && !kit.t.container.changes.healthy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    authenticator = kit.authenticator();
    await kit.registerWithPasskey('counted@example.com', authenticator);
    // Warm the per-process caches (project, settings, definitions) as a running service has them.
    const warm = new PasskeyClient(kit.t);
    const started = await warm.begin(kit.projectId, 'login');
    const warmed = await warm.answer(started, 'passkey', await authenticator.get(started.json().step.challenge.options, { origin: ORIGIN }));
    await exchange(warmed.json().handoff_token);
  });
  const exchange = (handoffToken: string) =>
    kit.t.app.inject({
      method: 'POST',
      url: `/sessions/exchange?project_id=${kit.projectId}`,
      headers: { authorization: `Bearer ${kit.projectSecret}` },
      payload: { handoff_token: handoffToken },
    });
  afterAll(async () => kit.t.close());

  it('starts in 1 statement (the shell with its run) answers in 2 (the risk signals with the credential; the challenge and the counter with the handoff) and exchanges in 1 with its events', async () => {
    const client = new PasskeyClient(kit.t);
    const start = await statementsOf(() => client.begin(kit.projectId, 'login'));
    expect(start.result.statusCode).toBe(200);
    const proof = await authenticator.get(start.result.json().step.challenge.options, { origin: ORIGIN });
    const answer = await statementsOf(() => client.answer(start.result, 'passkey', proof));
    expect(answer.result.statusCode, answer.result.body).toBe(200);
    expect(answer.result.json().handoff_token).toBeDefined();
    const exchanged = await statementsOf(() => exchange(answer.result.json().handoff_token));
    expect(exchanged.result.statusCode, exchanged.result.body).toBe(200);
    const shown = JSON.stringify({ start: start.statements, answer: answer.statements, exchange: exchanged.statements }, null, 1);
    expect(start.statements.length, shown).toBeLessThanOrEqual(1);
    expect(answer.statements.filter((text) => text.includes('flow_definitions')), shown).toEqual([]);
    expect(answer.statements.length, shown).toBeLessThanOrEqual(2);
    // The project secret and the user's profile are cached: the exchange is its one statement, which
    // also writes its events (session.created, login.succeeded) and their webhook deliveries, so
    // they commit together without BEGIN/COMMIT (docs/events.md).
    expect(exchanged.statements, shown).toHaveLength(1);
    expect(exchanged.statements[0], shown).toMatch(/insert into sessions[\s\S]*insert into events[\s\S]*insert into webhook_deliveries/);
    // The attempt is written handed off with its token and the run's end, in one statement (src/attempts/drafts.ts).
    expect(answer.statements.filter((text) => /auth_attempts|handoff_tokens|flow_runs/.test(text)), shown).toHaveLength(1);
    // ...which also consumes the challenge and moves the sign count (src/passkeys/store.ts useParts), the run's end requiring both.
    expect(answer.statements.filter((text) => text.includes('webauthn_used_challenges')), shown).toEqual(answer.statements.filter((text) => text.includes('handoff_tokens')));
  });
});
