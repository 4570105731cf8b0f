import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, registerThroughFlow } from './flow-test-kit.js';

/**
 * A recovery code goes to the address the account stores, never to the text the visitor typed:
 * identifier lookups fold case and Unicode, so a typed look-alike finds the real account.
 */
describe('recovery codes are mailed to the stored address', () => {
  let t: TestApp;
  let projectId: string;

  beforeAll(async () => {
    t = await createTestApp();
    projectId = (await t.createProject()).id;
    await registerThroughFlow(t, projectId, 'victim@github.com');
  });
  afterAll(async () => t.close());

  const requestCode = async (typed: string) => {
    const client = new FlowClient(t);
    const started = (await client.start({ project_id: projectId, purpose: 'recovery' })).json();
    const sent = await client.submit(started.id, 'send_code', { email: typed });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().step.name).toBe('code');
    await t.container.flows.courier.flush();
  };

  for (const typed of ['victim@gıthub.com', 'VICTIM@GITHUB.COM']) {
    it(`typing ${typed} mails the account's own address and nothing to the typed one`, async () => {
      const before = (await t.container.flows.courier.outboxFor('victim@github.com')).length;
      await requestCode(typed);
      expect(await t.container.flows.courier.outboxFor(typed)).toEqual([]);
      const mails = await t.container.flows.courier.outboxFor('victim@github.com');
      expect(mails).toHaveLength(before + 1);
      expect(mails.at(-1)?.body).toMatch(/\b\d{6}\b/);
    });
  }
});
