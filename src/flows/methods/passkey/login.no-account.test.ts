import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../../../test/helpers/app.js';
import { statementsOf, watchStatements } from '../../../../test/helpers/statements.js';
import type { SoftwareAuthenticator } from '../../../../test/helpers/webauthn-authenticator.js';
import { registerThroughFlow } from '../../flow-test-kit.js';
import { ORIGIN, PasskeyClient, passkeyFlowKit, type PasskeyFlowKit } from './passkey-flow-test-kit.js';

/**
 * Issue 31 item 4 (DESIGN §4.10): after an identifier, the options of a passkey challenge reveal
 * no account. A known user without passkeys and an identifier that names nobody both get stable
 * fake credential ids of one shape, and cost the same database work.
 */
describe('passkey options after an identifier reveal no account', () => {
  let kit: PasskeyFlowKit;
  let authenticator: SoftwareAuthenticator;
  let credentialId: string;

  beforeAll(async () => {
    await watchStatements();
    kit = await passkeyFlowKit();
    authenticator = kit.authenticator();
    const done = await kit.registerWithPasskey('pat@example.com', authenticator);
    credentialId = (await kit.exchange(done)).factors[0].payload.credential_id as string;
    // A user who signs in with a password only: known, but without passkeys.
    expect((await registerThroughFlow(kit.t, kit.projectId, 'ann@example.com')).statusCode).toBe(200);
  });
  afterAll(async () => kit.t.close());

  async function challengeFor(email: string, projectId = kit.projectId) {
    const client = new PasskeyClient(kit.t);
    const started = await client.begin(projectId, 'login');
    const challenged = await client.act(started.json().id, 'passkey', { email });
    expect(challenged.statusCode, challenged.body).toBe(200);
    return { client, challenged, options: challenged.json().step.challenge.options };
  }

  /** The answer with its random ids by their size and the typed identifier and session masked. */
  function shape(body: Record<string, unknown>): unknown {
    return JSON.parse(JSON.stringify(body), (key, value) => {
      if (typeof value !== 'string') return value;
      if (['id', 'challenge', 'challenge_id'].includes(key)) return `<${Buffer.from(value, 'base64url').length} bytes>`;
      return ['session_id', 'flow_id', 'value'].includes(key) ? '<masked>' : value;
    });
  }

  it('a known user without passkeys gets what an unknown identifier gets: one stable fake id, the same shape', async () => {
    const known = [await challengeFor('ann@example.com'), await challengeFor(' ANN@example.com')];
    const unknown = [await challengeFor('nobody@example.com'), await challengeFor('Nobody@example.com')];
    // Stable across requests (and spellings) of one identifier.
    expect(known[1].options.allowCredentials).toEqual(known[0].options.allowCredentials);
    expect(unknown[1].options.allowCredentials).toEqual(unknown[0].options.allowCredentials);
    // The same structure: one id of the same size, the same transports, the same whole answer.
    expect(known[0].options.allowCredentials).toHaveLength(1);
    expect(shape(known[0].challenged.json())).toEqual(shape(unknown[0].challenged.json()));
    expect(known[0].options.allowCredentials[0].transports).toEqual(unknown[0].options.allowCredentials[0].transports);
    // Different per identifier, and never a real credential.
    expect(known[0].options.allowCredentials[0].id).not.toBe(unknown[0].options.allowCredentials[0].id);
    expect(known[0].options.allowCredentials[0].id).not.toBe(credentialId);
  });

  it('the fake ids differ per project', async () => {
    const other = await kit.t.createProject();
    expect((await registerThroughFlow(kit.t, other.id, 'ann@example.com')).statusCode).toBe(200);
    const here = await challengeFor('ann@example.com');
    const there = await challengeFor('ann@example.com', other.id);
    const nobodyThere = await challengeFor('nobody@example.com', other.id);
    expect(there.options.allowCredentials).toHaveLength(1);
    expect(there.options.allowCredentials[0].id).not.toBe(here.options.allowCredentials[0].id);
    expect(nobodyThere.options.allowCredentials[0].id).not.toBe((await challengeFor('nobody@example.com')).options.allowCredentials[0].id);
  });

  it('a known user without passkeys and an unknown identifier cost the same statements', async () => {
    const masked = (statements: string[]) => statements.map((text) => text.replace(/'[^']*'/g, "'?'").replace(/\b\d+\b/g, 'N'));
    // Warm the per-process caches as a running service has them.
    await challengeFor('warm@example.com');
    const measure = async (email: string) => {
      const client = new PasskeyClient(kit.t);
      const started = await client.begin(kit.projectId, 'login');
      return statementsOf(() => client.act(started.json().id, 'passkey', { email }));
    };
    const known = await measure('ann@example.com');
    const unknown = await measure('nobody-else@example.com');
    expect(known.result.statusCode).toBe(200);
    expect(unknown.result.statusCode).toBe(200);
    expect(masked(unknown.statements), JSON.stringify({ known: known.statements, unknown: unknown.statements }, null, 1)).toEqual(masked(known.statements));
  });

  it('no passkey signs in as a known user without passkeys, and the refusal is the unknown identifier\'s', async () => {
    const refusals = [];
    for (const email of ['ann@example.com', 'nobody@example.com']) {
      const { client, challenged, options } = await challengeFor(email);
      const proof = await authenticator.get({ ...options, allowCredentials: [] }, { origin: ORIGIN, credentialId });
      const refused = await client.answer(challenged, 'passkey', proof);
      expect(refused.statusCode).toBe(400);
      expect(errorBody(refused).code).toBe('flow.invalid_credentials');
      expect(errorBody(refused).details.fields).toEqual({ passkey: 'error.passkey_invalid' });
      // The fresh challenge of the refusal offers the same fake id again.
      expect((errorBody(refused).details.challenge as { options: { allowCredentials: unknown[] } }).options.allowCredentials).toEqual(options.allowCredentials);
      refusals.push(shape(refused.json()));
    }
    expect(refusals[0]).toEqual(refusals[1]);
  });
});
