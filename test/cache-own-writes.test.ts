/**
 * A process sees its own writes at once (src/cache): every per-process cache keyed by a row it
 * has just changed drops that row when the write commits, not when the row's notification comes
 * back from the database. Here the notifications are held back (the LISTEN subscription is real;
 * its deliveries wait until the test releases them), which is what a loaded process sees when the
 * commit's answer arrives before the notification. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import { ManualClock } from '../src/core/clock.js';
import type { Engine } from '../src/db/engine.js';
import { createUser, handoffFor, sessionCookie } from '../src/sessions/test-fixtures.js';
import { bearer, type TestApp } from './helpers/app.js';
import { openTestEngine, type TestEngine } from './helpers/engine.js';

/** The engine with its notifications queued while `held`, delivered in order on `release`. */
function heldNotifications(engine: Engine) {
  const queue: Array<() => void> = [];
  const gate = {
    held: false,
    release() {
      gate.held = false;
      for (const deliver of queue.splice(0)) deliver();
    },
    engine: {
      ...engine,
      listen: (channel, onMessage, onLost) =>
        engine.listen(channel, (payload) => (gate.held ? queue.push(() => onMessage(payload)) : onMessage(payload)), onLost),
    } satisfies Engine,
  };
  return gate;
}

describe('a process sees its own writes before their notifications arrive', () => {
  let testEngine: TestEngine;
  let gate: ReturnType<typeof heldNotifications>;
  let container: Container;
  let app: FastifyInstance;
  const config = testConfig();
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    testEngine = await openTestEngine();
    gate = heldNotifications(testEngine.engine);
    container = createContainer(config, { engine: gate.engine, clock });
    app = await buildApp(container);
    for (let i = 0; i < 1000 && !container.changes.healthy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(container.changes.healthy).toBe(true);
  });
  beforeEach(() => gate.release());
  afterAll(async () => {
    gate.release();
    await app.close();
    for (const close of [...container.closers].reverse()) await close();
    await testEngine.close();
  });

  async function newProject(): Promise<{ id: string; project_secret: string }> {
    const created = await app.inject({ method: 'POST', url: '/projects', headers: bearer(config.adminToken), payload: { name: 'Own writes' } });
    expect(created.statusCode, created.body).toBe(201);
    return created.json();
  }
  /** A user of the project and a session of theirs. */
  async function signedIn(projectId: string) {
    const t = { container } as TestApp;
    const userId = await createUser(t, projectId);
    const issued = await container.exchange.exchange(projectId, { handoffToken: (await handoffFor(t, projectId, userId)).token });
    return { issued, userId };
  }
  const readWith = (secret: string, projectId: string) => app.inject({ method: 'GET', url: `/projects/${projectId}`, headers: bearer(secret) });

  it('a deleted project\'s secret is refused at once (the secret-to-project cache)', async () => {
    const project = await newProject();
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(200);
    gate.held = true;
    expect((await app.inject({ method: 'DELETE', url: `/projects/${project.id}`, headers: bearer(config.adminToken) })).statusCode).toBe(204);
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(401);
  });

  it("a deleted project's sessions are refused at once", async () => {
    const project = await newProject();
    const { issued } = await signedIn(project.id);
    const me = () => app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(issued.session_token) });
    expect((await me()).statusCode).toBe(200);
    gate.held = true;
    expect((await app.inject({ method: 'DELETE', url: `/projects/${project.id}`, headers: bearer(config.adminToken) })).statusCode).toBe(204);
    const after = await me();
    expect(after.statusCode, after.body).toBe(401);
  });

  it("a deleted user's sessions are refused at once, also while session checks run alongside the delete", async () => {
    const project = await newProject();
    const { issued, userId } = await signedIn(project.id);
    const me = () => app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(issued.session_token) });
    expect((await me()).statusCode).toBe(200);
    gate.held = true;
    // Checks racing the delete may load the row before it commits; none may keep it cached after.
    const racing = Array.from({ length: 20 }, () => me());
    const deleted = await app.inject({ method: 'DELETE', url: `/users/${userId}`, headers: bearer(project.project_secret) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await Promise.all(racing);
    expect((await me()).statusCode).toBe(401);
  });

  it('a rotated secret is current at once, and the grace period is the only thing left of the old one', async () => {
    const project = await newProject();
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(200);
    gate.held = true;
    const rotated = await app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: bearer(config.adminToken) });
    expect(rotated.statusCode, rotated.body).toBe(200);
    // Rotating again ends the first secret's grace at once (a leaked secret is dropped by rotating twice).
    const again = await app.inject({ method: 'POST', url: `/projects/${project.id}/rotate_secret`, headers: bearer(config.adminToken) });
    expect(again.statusCode, again.body).toBe(200);
    expect((await readWith(project.project_secret, project.id)).statusCode).toBe(401);
    expect((await readWith(again.json().project_secret, project.id)).statusCode).toBe(200);
  });

  it("changed session settings reach this process's session check at once", async () => {
    const project = await newProject();
    const { issued } = await signedIn(project.id);
    const me = () => app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(issued.session_token) });
    clock.advance(5 * 60 * 1000);
    expect((await me()).json().assurance_levels).toEqual(['urn:nist:aal:1']);
    gate.held = true;
    const patched = await app.inject({
      method: 'PATCH',
      url: `/projects/${project.id}/settings`,
      headers: bearer(project.project_secret),
      payload: { sessions: { aal1_window_seconds: 120, aal2_window_seconds: 60 } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await me()).json().assurance_levels).toEqual([]);
  });

  it("a user's changed name reaches this process's session check at once (the profile cache)", async () => {
    const project = await newProject();
    const { issued, userId } = await signedIn(project.id);
    const me = () => app.inject({ method: 'GET', url: '/sessions/me', headers: sessionCookie(issued.session_token) });
    expect((await me()).json().name).toBe('Ada Lovelace');
    gate.held = true;
    const patched = await app.inject({
      method: 'PATCH',
      url: `/users/${userId}`,
      headers: bearer(project.project_secret),
      payload: { attributes: { email: (await container.users.find(project.id, userId))!.attributes.email, name: { given: 'Grace', family: 'Hopper' } } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await me()).json().name).toBe('Grace Hopper');
  });

  it('the held notifications still arrive, and nothing is stale after them', async () => {
    const project = await newProject();
    gate.held = true;
    const delivered = container.changes.next(`proj:${project.id}`);
    expect((await app.inject({ method: 'PATCH', url: `/projects/${project.id}`, headers: bearer(config.adminToken), payload: { name: 'Renamed' } })).statusCode).toBe(200);
    gate.release();
    await delivered;
    expect((await readWith(project.project_secret, project.id)).json().name).toBe('Renamed');
  });
});
