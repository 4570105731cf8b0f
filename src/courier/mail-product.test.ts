import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody } from '../../test/helpers/app.js';
import { openTestEngine, type TestEngine } from '../../test/helpers/engine.js';
import { ManualClock } from '../core/clock.js';
import { randomIds } from '../core/ids.js';
import { FlowClient, registerThroughFlow } from '../flows/flow-test-kit.js';
import { otpKit, type OtpKit } from '../flows/methods/otp/otp-flow-test-kit.js';
import { Courier } from './service.js';
import { CourierStore } from './store.js';
import { startSmtpServer, textPart } from './test-smtp-server.js';

const logger = pino({ level: 'silent' });

describe('mail as a product: templates, languages, overrides', () => {
  let kit: OtpKit;
  beforeAll(async () => {
    kit = await otpKit();
    await kit.createUser('tpl@example.com');
  });
  afterAll(async () => kit.close());
  const url = (template: string, language: string) => `/projects/${kit.project.id}/mail_templates/${template}/${language}`;

  it('sends German with Accept-Language: de, text and HTML parts', async () => {
    const c = new FlowClient(kit.t, '203.0.113.60');
    const started = await c.start({ project_id: kit.project.id, purpose: 'code_login' });
    await kit.t.app.inject({ method: 'POST', url: `/flow/${started.json().id}/submit`, payload: { action: 'send_code', fields: { email: 'tpl@example.com' } }, headers: { cookie: `_zflow=${c.cookie}`, 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' }, remoteAddress: c.ip });
    const mail = await kit.lastMail('tpl@example.com');
    expect(mail!.raw).toMatch(/Subject: Anmeldung bei/);
    expect(textPart(mail!.raw)).toMatch(/^\d{6}$/m);
    expect(mail!.raw).toMatch(/text\/html/);
  });

  it('an override per language replaces subject and body; one that does not parse is refused and changes nothing', async () => {
    kit.t.clock.advance(16 * 60_000);
    const headers = bearer(kit.project.project_secret);
    const bad = await kit.t.app.inject({ method: 'PUT', url: url('magic_link', 'en'), headers, payload: { subject: 'Hi {{ code', text: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad)).toMatchObject({ code: 'req.invalid', details: { errors: [{ path: 'body/subject' }] } });
    const badFilter = await kit.t.app.inject({ method: 'PUT', url: url('magic_link', 'en'), headers, payload: { subject: 'x', text: '{{ code | nosuchfilter }}' } });
    expect(badFilter.statusCode).toBe(400);
    expect((await kit.t.app.inject({ method: 'GET', url: `/projects/${kit.project.id}/mail_templates`, headers })).json()).toEqual({ mail_templates: [] });
    const unknown = await kit.t.app.inject({ method: 'PUT', url: url('nope', 'fr'), headers, payload: { subject: 'x', text: 'y' } });
    expect(unknown.statusCode).toBe(400);

    const put = await kit.t.app.inject({ method: 'PUT', url: url('magic_link', 'en'), headers, payload: { subject: 'Welcome back to {{ project_name }}', text: 'Code for {{ email }}:\n{{ code }}\nLink:\n{{ link }}\n' } });
    expect(put.statusCode, put.body).toBe(200);
    const c = new FlowClient(kit.t, '203.0.113.61');
    await kit.requestCode(c, 'tpl@example.com');
    const mail = await kit.lastMail('tpl@example.com');
    expect(mail!.raw).toMatch(/Subject: Welcome back to Project/);
    const { text } = await kit.codeFor('tpl@example.com');
    expect(text).toMatch(/^Code for tpl@example\.com:$/m);
    const other = await kit.t.createProject();
    const foreign = await kit.t.app.inject({ method: 'GET', url: `/projects/${kit.project.id}/mail_templates`, headers: bearer(other.project_secret) });
    expect(foreign.statusCode).toBe(404);
    const removed = await kit.t.app.inject({ method: 'DELETE', url: url('magic_link', 'en'), headers });
    expect(removed.statusCode).toBe(204);
  });

  it('lists the built-in templates and previews a message as it would be sent, override or built-in', async () => {
    const headers = bearer(kit.project.project_secret);
    const builtIn = await kit.t.app.inject({ method: 'GET', url: `/projects/${kit.project.id}/mail_templates/built_in`, headers });
    expect(builtIn.statusCode, builtIn.body).toBe(200);
    const listed = builtIn.json().mail_templates as Array<{ template: string; language: string; subject: string }>;
    expect(listed.map((one) => `${one.template}/${one.language}`)).toEqual(['recovery_code/en', 'recovery_code/de', 'sign_in_code/en', 'sign_in_code/de', 'magic_link/en', 'magic_link/de', 'recovery_link/en', 'recovery_link/de']);
    expect(listed.find((one) => one.template === 'sign_in_code' && one.language === 'de')?.subject).toBe('Ihr Anmeldecode für {{ project_name }}');

    const preview = async (template: string, language: string) => kit.t.app.inject({ method: 'GET', url: `${url(template, language)}/preview`, headers });
    const german = await preview('magic_link', 'de');
    expect(german.statusCode, german.body).toBe(200);
    expect(german.json()).toMatchObject({ template: 'magic_link', language: 'de', overridden: false, subject: 'Anmeldung bei Example', variables: { code: '123456' } });
    expect(german.json().text).toMatch(/^123456$/m);
    expect(german.json().text).toContain('https://example.com/ui/link');

    const put = await kit.t.app.inject({ method: 'PUT', url: url('magic_link', 'en'), headers, payload: { subject: 'Hello {{ email }}', text: 'Yours: {{ code }}' } });
    expect(put.statusCode, put.body).toBe(200);
    const english = await preview('magic_link', 'en');
    expect(english.json()).toMatchObject({ overridden: true, subject: 'Hello ann@example.com', text: 'Yours: 123456' });
    expect((await preview('magic_link', 'de')).json()).toMatchObject({ overridden: false, subject: 'Anmeldung bei Example' });
    await kit.t.app.inject({ method: 'DELETE', url: url('magic_link', 'en'), headers });
    expect((await preview('magic_link', 'en')).json()).toMatchObject({ overridden: false, subject: 'Sign in to Example' });

    expect((await preview('nope', 'en')).statusCode).toBe(400);
    expect((await preview('magic_link', 'fr')).statusCode).toBe(400);
    const other = await kit.t.createProject();
    const foreign = await kit.t.app.inject({ method: 'GET', url: `${url('magic_link', 'en')}/preview`, headers: bearer(other.project_secret) });
    expect(foreign.statusCode).toBe(404);
    const foreignList = await kit.t.app.inject({ method: 'GET', url: `/projects/${kit.project.id}/mail_templates/built_in`, headers: bearer(other.project_secret) });
    expect(foreignList.statusCode).toBe(404);
  });
});

describe('courier delivery: retries, STARTTLS, outages', () => {
  let engine: TestEngine;
  const clock = new ManualClock('2030-01-01T00:00:00Z');
  beforeAll(async () => {
    engine = await openTestEngine();
  });
  afterAll(async () => engine.close());
  const courier = (smtpUrl: string) => new Courier(new CourierStore(engine.engine.db), clock, randomIds, logger, { smtpUrl, from: 'x@gatehouse.test', retry: { attempts: 4, baseMs: 5 } });

  it('retries transient 451 answers with backoff and records the final status and tries', async () => {
    const smtp = await startSmtpServer({ failFirst: 2 });
    const c = courier(smtp.url);
    const row = await c.send({ to: 'retry@example.com', subject: 's', text: '123456', template: 't' });
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    expect(smtp.refused()).toBe(2);
    expect((await c.outboxFor('retry@example.com'))[0]).toMatchObject({ status: 'sent', attempts: 3 });
    await c.close();
    await smtp.close();
  });

  it('gives up after its tries on a server that keeps refusing: failed, with the error', async () => {
    const smtp = await startSmtpServer({ failFirst: 100 });
    const c = courier(smtp.url);
    const row = await c.send({ to: 'never@example.com', subject: 's', text: 't', template: 't' });
    expect(row).toMatchObject({ status: 'failed', attempts: 4 });
    expect((await c.outboxFor('never@example.com'))[0].error).toMatch(/451|Try again/);
    await c.close();
    await smtp.close();
  });

  it('delivers over STARTTLS', async () => {
    const smtp = await startSmtpServer({ starttls: true });
    const c = courier(smtp.url);
    expect((await c.send({ to: 'tls@example.com', subject: 's', text: 't', template: 't' })).status).toBe('sent');
    expect(smtp.received[0].secure).toBe(true);
    await c.close();
    await smtp.close();
  });

  it('a mail outage never fails a flow: the submit answers, the outbox records the failure', async () => {
    const dead = await startSmtpServer();
    await dead.close();
    const t = await createTestApp({ smtpUrl: dead.url });
    try {
      const project = await t.createProject();
      await registerThroughFlow(t, project.id, 'outage@example.com');
      const c = new FlowClient(t, '203.0.113.70');
      const started = await c.start({ project_id: project.id, purpose: 'recovery' });
      const answer = await c.submit(started.json().id, 'send_code', { email: 'outage@example.com' });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().step.name).toBe('code');
      await t.container.flows.courier.flush();
      expect((await t.container.flows.courier.outboxFor('outage@example.com'))[0]).toMatchObject({ status: 'failed', attempts: 4 });
    } finally {
      await t.close();
    }
  });
});
