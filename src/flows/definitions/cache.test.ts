import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FlowClient } from '../flow-test-kit.js';
import type { FlowDefinitionDoc } from './types.js';

/**
 * The per-process definition cache (docs/performance.md, "Caches"): flow requests resolve and
 * load definitions from memory, and a change through the API is seen by the very next request.
 */
describe('flow definition cache', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let login: { id: string; flow_definition: FlowDefinitionDoc };

  const titleOf = async (client: FlowClient, flowId: string) => {
    const response = await client.get(flowId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().step.texts.title_key as string;
  };

  /** The login definition with the identify step's title key changed. */
  const retitled = (title: string): FlowDefinitionDoc => ({
    ...login.flow_definition,
    steps: login.flow_definition.steps.map((step) => (step.name === 'identify' ? { ...step, texts: { title_key: title } } : step)),
  });

  /** Writes a definition document with SQL that no trigger sees: a change nobody announces. */
  const silently = (doc: FlowDefinitionDoc) =>
    t.container.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await trx.updateTable('flow_definitions').set({ definition: JSON.stringify(doc) }).where('id', '=', login.id).execute();
    });

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    const list = await t.app.inject({ method: 'GET', url: '/flow_definitions?purpose=login', headers: bearer(project.project_secret) });
    const id = list.json().flow_definitions.find((d: { name: string }) => d.name === 'login').id as string;
    login = (await t.app.inject({ method: 'GET', url: `/flow_definitions/${id}`, headers: bearer(project.project_secret) })).json();
    // The feed connects in the background; until then every lookup goes to the database.
    for (let i = 0; i < 1000 && !t.container.changes.healthy; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  });
  afterAll(async () => t.close());

  it('serves running flows from memory: a change nobody announces is not seen', async () => {
    expect(t.container.changes.healthy).toBe(true);
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    expect(started.json().step.texts.title_key).toBe('step.identify.title');
    await silently(retitled('step.identify.silent'));
    expect(await titleOf(client, started.json().id)).toBe('step.identify.title');
    // Put the stored document back the way the cache has it.
    await silently(login.flow_definition);
  });

  it('sees a replacement through the API on the very next request', async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    expect(await titleOf(client, started.json().id)).toBe('step.identify.title');
    const put = await t.app.inject({ method: 'PUT', url: `/flow_definitions/${login.id}`, headers: bearer(project.project_secret), payload: { flow_definition: retitled('step.identify.renamed') } });
    expect(put.statusCode, put.body).toBe(200);
    expect(await titleOf(client, started.json().id)).toBe('step.identify.renamed');
    const again = await new FlowClient(t).start({ project_id: project.id, purpose: 'login' });
    expect(again.json().step.texts.title_key).toBe('step.identify.renamed');
  });

  it('resolves a definition created through the API on the very next start, and stops after its deletion', async () => {
    const kiosk = { ...retitled('step.identify.kiosk'), name: 'kiosk', audience: { app_ids: ['kiosk'] } };
    expect((await new FlowClient(t).start({ project_id: project.id, purpose: 'login', app_id: 'kiosk' })).json().step.texts.title_key).not.toBe('step.identify.kiosk');
    const created = await t.app.inject({ method: 'POST', url: '/flow_definitions', headers: bearer(project.project_secret), payload: { flow_definition: kiosk } });
    expect(created.statusCode, created.body).toBe(201);
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login', app_id: 'kiosk' });
    expect(started.json().step.texts.title_key).toBe('step.identify.kiosk');
    // The running flow keeps the definition in use; once it is gone (cookie dropped, run expired), it can go.
    t.clock.advance(11 * 60 * 1000);
    const removed = await t.app.inject({ method: 'DELETE', url: `/flow_definitions/${created.json().id}`, headers: bearer(project.project_secret) });
    expect(removed.statusCode, removed.body).toBe(204);
    const after = await new FlowClient(t).start({ project_id: project.id, purpose: 'login', app_id: 'kiosk' });
    expect(after.json().step.texts.title_key).not.toBe('step.identify.kiosk');
  });

  it('sees a change by any writer (SQL, no API) once its notification arrives', async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    const delivered = t.container.changes.next(`fdef:${project.id}`);
    await t.container.db.updateTable('flow_definitions').set({ definition: JSON.stringify(retitled('step.identify.by_sql')) }).where('id', '=', login.id).execute();
    await delivered;
    expect(await titleOf(client, started.json().id)).toBe('step.identify.by_sql');
  });

  it('reads the database on every use while the change feed is down (the cache is bypassed)', async () => {
    const client = new FlowClient(t);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    // The feed's closer (container.ts starts it first).
    await t.container.closers[0]();
    expect(t.container.changes.healthy).toBe(false);
    await silently(retitled('step.identify.while_down'));
    expect(await titleOf(client, started.json().id)).toBe('step.identify.while_down');
  });
});
