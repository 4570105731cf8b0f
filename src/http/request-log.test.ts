import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../test/helpers/engine.js';
import { buildApp } from '../app.js';
import { testConfig } from '../config.js';
import { createContainer, type Container } from '../container.js';
import { createLogger } from './log-redaction.js';

describe('request log at the default level (info)', () => {
  const lines: Array<Record<string, any>> = [];
  let engine: TestEngine;
  let container: Container;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let processLogged: Container;
  let processApp: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    engine = await openTestEngine();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    container = createContainer(testConfig(), { engine: engine.engine, logger: pino({ level: 'info' }, sink) });
    app = await buildApp(container);
    // The process logger itself (its `req` serializer and line redaction), as `gatehouse serve` builds it.
    processLogged = createContainer(testConfig(), { engine: engine.engine, logger: createLogger('info', sink) });
    processApp = await buildApp(processLogged);
  });
  afterAll(async () => {
    for (const [built, parts] of [[app, container], [processApp, processLogged]] as const) {
      await built.close();
      for (const close of [...parts.closers].reverse()) await close();
    }
    await engine.close();
  });

  it('writes one line per request with method, URL (only allow-listed query values), status, response time and reqId, and no headers', async () => {
    lines.length = 0;
    const response = await app.inject({ method: 'GET', url: '/sessions/me?lang=de&x=1', headers: { cookie: '__service_session=gh_st_secret', 'x-request-id': 'trace-12345678' } });
    expect(response.statusCode).toBe(401);
    const logged = lines.filter((line) => line.reqId === 'trace-12345678');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/sessions/me?lang=de&x=[redacted]' }, res: { statusCode: 401 } });
    expect(typeof logged[0].responseTime).toBe('number');
    expect(JSON.stringify(logged[0])).not.toContain('gh_st_secret');
  });

  it('the process logger writes the client address and port too, and the URL redacted once', async () => {
    lines.length = 0;
    const response = await processApp.inject({ method: 'GET', url: '/sessions/me?lang=de&x=1', headers: { 'x-request-id': 'trace-87654321' }, remoteAddress: '198.51.100.7' });
    expect(response.statusCode).toBe(401);
    const logged = lines.filter((line) => line.reqId === 'trace-87654321');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/sessions/me?lang=de&x=[redacted]', remoteAddress: '198.51.100.7' }, res: { statusCode: 401 } });
  });
});
