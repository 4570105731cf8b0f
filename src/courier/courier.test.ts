import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/helpers/engine.js';
import { ManualClock } from '../core/clock.js';
import { randomIds } from '../core/ids.js';
import { Courier } from './service.js';
import { startSmtpServer } from './test-smtp-server.js';
import { CourierStore } from './store.js';

describe('courier', () => {
  let engine: TestEngine;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const clock = new ManualClock('2030-01-01T00:00:00Z');
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    engine = await openTestEngine();
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
    await engine.close();
  });

  it('embedded default: keeps the message in the outbox and sends nothing', async () => {
    const courier = new Courier(new CourierStore(engine.engine.db), clock, randomIds, logger, { from: 'Gatehouse <no-reply@localhost>' });
    expect(courier.mode).toBe('embedded');
    const row = await courier.send({ to: 'ann@example.com', subject: 'Your code', text: 'Code: 123456', template: 'recovery_code' });
    expect(row.status).toBe('logged');
    const [stored] = await courier.outboxFor('ann@example.com');
    expect(stored).toMatchObject({ id: row.id, recipient: 'ann@example.com', subject: 'Your code', body: 'Code: 123456', status: 'logged', template: 'recovery_code' });
    expect(stored.created_at.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('with SMTP: delivers through a real SMTP server and keeps only the envelope', async () => {
    const courier = new Courier(new CourierStore(engine.engine.db), clock, randomIds, logger, { smtpUrl: smtp.url, from: 'Gatehouse <no-reply@gatehouse.test>' });
    expect(courier.mode).toBe('smtp');
    const row = await courier.send({ to: 'bob@example.com', subject: 'Your code', text: 'Code: 654321', template: 'recovery_code' });
    expect(row.status).toBe('sent');
    const mail = smtp.received.find((m) => m.to.includes('bob@example.com'));
    expect(mail?.from).toBe('no-reply@gatehouse.test');
    expect(mail?.raw).toContain('Subject: Your code');
    expect(mail?.raw).toContain('Code: 654321');
    const [stored] = await courier.outboxFor('bob@example.com');
    expect(stored).toMatchObject({ status: 'sent', body: null });
    await courier.close();
  });

  it('sendLater does not make the caller wait; flush awaits delivery', async () => {
    const courier = new Courier(new CourierStore(engine.engine.db), clock, randomIds, logger, { smtpUrl: smtp.url, from: 'x@gatehouse.test' });
    courier.sendLater({ to: 'later@example.com', subject: 'Later', text: 'Code: 111111', template: 'recovery_code' });
    await courier.flush();
    expect(smtp.received.some((m) => m.to.includes('later@example.com'))).toBe(true);
    expect((await courier.outboxFor('later@example.com'))[0].status).toBe('sent');
    await courier.close();
  });

  it('records a failed delivery without throwing', async () => {
    const dead = await startSmtpServer();
    await dead.close();
    const courier = new Courier(new CourierStore(engine.engine.db), clock, randomIds, logger, { smtpUrl: dead.url, from: 'x@localhost' });
    const row = await courier.send({ to: 'cat@example.com', subject: 's', text: 't', template: 't' });
    expect(row.status).toBe('failed');
    const [stored] = await courier.outboxFor('cat@example.com');
    expect(stored.status).toBe('failed');
    expect(stored.error).toBeTruthy();
    await courier.close();
  });
});
