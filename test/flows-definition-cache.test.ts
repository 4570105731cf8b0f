/**
 * The per-process flow definition cache across processes (migration 0051): a definition changed
 * through one process is seen by another on the same PostgreSQL database once the notification
 * arrives. Two containers with separate pools and LISTEN connections stand for two processes.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDefinitionDoc } from '../src/flows/definitions/types.js';
import { FlowClient } from '../src/flows/flow-test-kit.js';
import { bearer, createTestApp, type TestApp } from './helpers/app.js';
import { testEngineKind } from './helpers/engine.js';
import { openSecondProcess, within, type SecondProcess } from './helpers/second-process.js';

describe.skipIf(testEngineKind() === 'pglite')('flow definition cache across two processes (PostgreSQL only)', () => {
  let a: TestApp;
  let b: SecondProcess;
  let url: string;
  let project: { id: string; project_secret: string };
  let login: { id: string; flow_definition: FlowDefinitionDoc };

  const retitled = (title: string): FlowDefinitionDoc => ({
    ...login.flow_definition,
    steps: login.flow_definition.steps.map((step) => (step.name === 'identify' ? { ...step, texts: { title_key: title } } : step)),
  });
  const titleOn = async (client: FlowClient, flowId: string) => {
    const response = await client.get(flowId);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().step.texts.title_key as string;
  };

  beforeAll(async () => {
    a = await createTestApp();
    b = await openSecondProcess(a);
    url = b.url;
    project = await a.createProject();
    const list = await a.app.inject({ method: 'GET', url: '/flow_definitions?purpose=login', headers: bearer(project.project_secret) });
    const id = list.json().flow_definitions.find((d: { name: string }) => d.name === 'login').id as string;
    login = (await a.app.inject({ method: 'GET', url: `/flow_definitions/${id}`, headers: bearer(project.project_secret) })).json();
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('serves definitions from memory: a change nobody announces stays invisible to the other process', async () => {
    const client = new FlowClient({ app: b.app } as TestApp);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    expect(started.statusCode, started.body).toBe(200);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query('set session_replication_role = replica');
      await db.query('update flow_definitions set definition = $1 where id = $2', [JSON.stringify(retitled('step.identify.silent')), login.id]);
      expect(await titleOn(client, started.json().id)).toBe('step.identify.title');
      await db.query('update flow_definitions set definition = $1 where id = $2', [JSON.stringify(login.flow_definition), login.id]);
    } finally {
      await db.end();
    }
  });

  it('sees a definition replaced through the other process once its notification arrives', async () => {
    const client = new FlowClient({ app: b.app } as TestApp);
    const started = await client.start({ project_id: project.id, purpose: 'login' });
    expect(await titleOn(client, started.json().id)).toBe('step.identify.title');
    const delivered = b.container.changes.next(`fdef:${project.id}`);
    const put = await a.app.inject({ method: 'PUT', url: `/flow_definitions/${login.id}`, headers: bearer(project.project_secret), payload: { flow_definition: retitled('step.identify.renamed') } });
    expect(put.statusCode, put.body).toBe(200);
    await within(delivered, 'the flow definition change notification');
    expect(await titleOn(client, started.json().id)).toBe('step.identify.renamed');
  });

  it('resolves a definition created through the other process once its notification arrives', async () => {
    const client = new FlowClient({ app: b.app } as TestApp);
    expect((await client.start({ project_id: project.id, purpose: 'login', app_id: 'kiosk' })).json().step.texts.title_key).not.toBe('step.identify.kiosk');
    const delivered = b.container.changes.next(`fdef:${project.id}`);
    const kiosk = { ...retitled('step.identify.kiosk'), name: 'kiosk', audience: { app_ids: ['kiosk'] } };
    const created = await a.app.inject({ method: 'POST', url: '/flow_definitions', headers: bearer(project.project_secret), payload: { flow_definition: kiosk } });
    expect(created.statusCode, created.body).toBe(201);
    await within(delivered, 'the flow definition insert notification');
    expect((await client.start({ project_id: project.id, purpose: 'login', app_id: 'kiosk' })).json().step.texts.title_key).toBe('step.identify.kiosk');
  });
});
