import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { MINUTE } from '../core/clock.js';
import { projectWithUser, type Fixture } from '../sessions/test-fixtures.js';
import { AttemptDrafts } from './drafts.js';

/** Attempts written late (src/attempts/drafts.ts): nothing until saved, or handed off behind a gate. */
describe('attempt drafts', () => {
  let t: TestApp;
  let f: Fixture;
  let drafts: AttemptDrafts;
  let definitionId: string;
  let runs = 0;

  beforeAll(async () => {
    t = await createTestApp();
    f = await projectWithUser(t);
    const { attempts, sessions, clock } = t.container;
    drafts = new AttemptDrafts(attempts, attempts.store, sessions, clock);
    definitionId = (await t.container.db.selectFrom('flow_definitions').select('id').where('project_id', '=', f.project.id).executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => t.close());

  /** A live flow run of the project and the UPDATE that ends it: the gate a flow hands off behind. */
  async function openRun(sessionId: string): Promise<string> {
    const id = `flow_draftgate${String(++runs).padStart(11, '0')}`;
    await t.container.flows.definitions.startRun(f.project.id, id, definitionId, sessionId, new Date(t.clock.now().getTime() + 10 * MINUTE));
    return id;
  }

  it('writes nothing until saved; saved, it is the pending attempt recordFactor would have written', async () => {
    const draft = drafts.start(f.project.id, { firstFactor: { method: 'password', userId: f.userId } });
    await expect(t.container.attempts.get(f.project.id, draft.row.id)).rejects.toMatchObject({ code: 'att.not_found' });
    const both = drafts.withFactor(draft, { method: 'passkey', payload: { user_verified: true } });
    expect(() => drafts.withFactor(draft, { method: 'otp', userId: 'usr_someoneelse0000000000' })).toThrow(expect.objectContaining({ code: 'att.invalid_state' }));
    await drafts.save(both);
    const saved = await t.container.attempts.get(f.project.id, draft.row.id);
    expect(saved).toMatchObject({ state: 'pending', user_id: f.userId });
    expect(saved.factors.map((factor) => factor.method).sort()).toEqual(['passkey', 'password']);
  });

  it('hands off in one statement: the attempt, its token and the shell extension exist only if the gate opened', async () => {
    const shell = await t.container.sessions.createAnonymous(f.project.id);
    const runId = await openRun(shell.session.session_id);
    const closed = drafts.start(f.project.id, { sessionId: shell.session.session_id, firstFactor: { method: 'password', userId: f.userId } });
    const gateThatNeverOpens = t.container.flows.definitions.endRunQuery('flow_unknown000000000000000');
    expect((await drafts.handOff(closed, gateThatNeverOpens)).handoff).toBeUndefined();
    await expect(t.container.attempts.get(f.project.id, closed.row.id)).rejects.toMatchObject({ code: 'att.not_found' });

    t.clock.advance(MINUTE);
    const draft = drafts.start(f.project.id, { sessionId: shell.session.session_id, firstFactor: { method: 'password', userId: f.userId } });
    const { handoff } = await drafts.handOff(draft, t.container.flows.definitions.endRunQuery(runId));
    expect(handoff?.handoff_token).toMatch(/^gh_ho_/);
    expect(await t.container.attempts.get(f.project.id, draft.row.id)).toMatchObject({ state: 'handed_off', session_id: shell.session.session_id });
    // The shell's TTL was reset to the full session TTL as `complete` resets it, and the cache saw it.
    const extended = await t.container.sessions.get(f.project.id, shell.session.session_id);
    expect(new Date(extended.expires_at).getTime()).toBeGreaterThan(new Date(shell.session.expires_at).getTime());
    // The token upgrades the shell like any other handoff token, once.
    const exchanged = await t.container.exchange.exchange(f.project.id, { handoffToken: handoff!.handoff_token });
    expect(exchanged.session).toMatchObject({ session_id: shell.session.session_id, state: 'active' });
    await expect(t.container.exchange.exchange(f.project.id, { handoffToken: handoff!.handoff_token })).rejects.toMatchObject({ code: 'att.not_found' });
  });

  it('of 20 concurrent drafts handed off behind one run exactly one gets a token and only its attempt is written', async () => {
    const shell = await t.container.sessions.createAnonymous(f.project.id);
    const runId = await openRun(shell.session.session_id);
    const contenders = Array.from({ length: 20 }, () => drafts.start(f.project.id, { sessionId: shell.session.session_id, firstFactor: { method: 'password', userId: f.userId } }));
    const outcomes = await Promise.all(contenders.map((draft) => drafts.handOff(draft, t.container.flows.definitions.endRunQuery(runId))));
    expect(outcomes.filter((outcome) => outcome.handoff !== undefined)).toHaveLength(1);
    const written = await t.container.db
      .selectFrom('auth_attempts')
      .select('id')
      .where('id', 'in', contenders.map((draft) => draft.row.id))
      .execute();
    expect(written).toHaveLength(1);
    const tokens = await t.container.db.selectFrom('handoff_tokens').select('attempt_id').where('attempt_id', '=', written[0].id).execute();
    expect(tokens).toHaveLength(1);
  });
});
