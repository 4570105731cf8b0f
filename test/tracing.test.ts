import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, tracingOn, withSpan } from '../src/core/tracing.js';
import { bearer, createListeningTestApp, createTestApp, type TestApp } from './helpers/app.js';
import { flowJourney } from './helpers/flow-journey.js';

/**
 * Traces (issue 37 item 3): one login journey over real HTTP with an in-memory exporter. Each
 * request is a server span, the parent of the SQL statements run for it; nothing personal is in
 * any attribute. Runs on PGlite and on PostgreSQL alike (the SQL seam is the engine's pool).
 */
describe('tracing with an in-memory exporter', () => {
  const exporter = new InMemorySpanExporter();
  let stopTracing: () => Promise<void>;
  let t: TestApp & { base: string };
  let project: { id: string; project_secret: string };
  const run = randomBytes(4).toString('hex');
  const email = `trace-${run}@example.com`;
  const password = `Trace-password-${run}-secret!`;
  let sessionToken = '';
  let handoffToken = '';
  let userId = '';

  beforeAll(async () => {
    stopTracing = await startTracing({ exporter, immediate: true });
    t = await createListeningTestApp();
    project = await t.createProject('Tracing');
    await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/flow_settings`, headers: bearer(project.project_secret), payload: { risk: { ip_flow_starts_per_minute: 1000 } } });
    const registered = await flowJourney(t.base, project.id, 'register', { email, password, 'name.given': 'Trace', 'name.family': 'User' });
    const exchanged = await t.app.inject({ method: 'POST', url: `/sessions/exchange?project_id=${project.id}`, headers: bearer(project.project_secret), payload: { handoff_token: registered.handoffToken } });
    userId = exchanged.json().session.user_id;
    exporter.reset();
    // The journey under test: a password login, then the backend's exchange and a session check.
    const login = await flowJourney(t.base, project.id, 'login', { identifier: email, email, password });
    handoffToken = login.handoffToken;
    const session = await fetch(`${t.base}/sessions/exchange?project_id=${project.id}`, {
      method: 'POST',
      headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
      body: JSON.stringify({ handoff_token: handoffToken }),
    });
    expect(session.status).toBe(200);
    sessionToken = ((await session.json()) as { session_token: string }).session_token;
    expect((await fetch(`${t.base}/sessions/me`, { headers: bearer(sessionToken) })).status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await stopTracing?.();
  });

  const spans = () => exporter.getFinishedSpans();
  const requests = () => spans().filter((s) => s.kind === SpanKind.SERVER);
  const childrenOf = (parent: ReadableSpan) => spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

  it('makes one server span per request, named by route pattern, with method, status and project id', () => {
    const routes = requests().map((s) => `${s.attributes['http.request.method'] as string} ${s.attributes['http.route'] as string} ${String(s.attributes['http.response.status_code'])}`);
    expect(routes).toEqual(expect.arrayContaining(['POST /flow 200', 'POST /flow/:id/submit 200', 'POST /sessions/exchange 200', 'GET /sessions/me 200']));
    for (const span of requests()) {
      expect(span.name).toBe(`${span.attributes['http.request.method'] as string} ${span.attributes['http.route'] as string}`);
      expect(span.parentSpanContext, 'a request is a root span').toBeUndefined();
    }
    const byRoute = (route: string) => requests().find((s) => s.attributes['http.route'] === route)!;
    for (const route of ['/flow', '/flow/:id/submit', '/sessions/exchange', '/sessions/me']) {
      expect(byRoute(route).attributes['gatehouse.project_id'], route).toBe(project.id);
    }
  });

  it('makes the SQL statements of a request its children, with the statement text and no values', () => {
    const submits = requests().filter((s) => s.attributes['http.route'] === '/flow/:id/submit');
    expect(submits.length).toBeGreaterThan(0);
    for (const request of [...submits, ...requests().filter((s) => s.attributes['http.route'] === '/sessions/exchange')]) {
      const statements = childrenOf(request).filter((s) => s.kind === SpanKind.CLIENT);
      expect(statements.length, request.name).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.spanContext().traceId).toBe(request.spanContext().traceId);
        expect(statement.attributes['db.system.name']).toBe('postgresql');
        expect(statement.name).toBe(statement.attributes['db.operation.name']);
        expect(typeof statement.attributes['db.query.text']).toBe('string');
      }
    }
    // The password login reads the user's credential by a parameter, not by an inlined value.
    const texts = spans().map((s) => s.attributes['db.query.text']).filter((text): text is string => typeof text === 'string');
    expect(texts.some((text) => /\$1/.test(text))).toBe(true);
    // Every statement of the journey ran inside some request.
    const orphans = spans().filter((s) => s.kind === SpanKind.CLIENT && s.parentSpanContext === undefined);
    expect(orphans.map((s) => s.attributes['db.query.text'])).toEqual([]);
  });

  it('records no personal data: no e-mail, password, token, user id or address in any name or attribute', () => {
    const secrets = [email, email.split('@')[0], password, handoffToken, sessionToken, project.project_secret, userId, '127.0.0.1'];
    for (const span of spans()) {
      const text = JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events, resource: span.resource.attributes });
      for (const secret of secrets) expect(text.includes(secret), `${span.name} holds ${secret}`).toBe(false);
      for (const key of Object.keys(span.attributes)) expect(key).toMatch(/^(http\.(request\.method|route|response\.status_code)|gatehouse\.project_id|db\.(system\.name|operation\.name|query\.text)|error\.type)$/);
    }
  });

  it("joins the caller's trace when the request carries a W3C traceparent", async () => {
    exporter.reset();
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    expect((await fetch(`${t.base}/healthz`, { headers: { traceparent: `00-${traceId}-${parentId}-01` } })).status).toBe(200);
    const [span] = requests();
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe(parentId);
  });

  it('withSpan: a child of the active span with the given attributes; a failure records its type, not its message', async () => {
    exporter.reset();
    const failure = Object.assign(new Error(`could not mail ${email}`), { code: 'mail.failed' });
    await withSpan('outbox.deliver', { 'gatehouse.project_id': project.id, attempt: 1 }, () => withSpan('webhook.send', {}, async () => 'sent'));
    await expect(withSpan('outbox.deliver', { attempt: 2 }, () => Promise.reject(failure))).rejects.toBe(failure);
    const [inner, outer, failed] = spans();
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(outer.attributes).toEqual({ 'gatehouse.project_id': project.id, attempt: 1 });
    expect(failed.attributes['error.type']).toBe('mail.failed');
    expect(JSON.stringify({ name: failed.name, attributes: failed.attributes, events: failed.events, status: failed.status })).not.toContain(email);
  });
});

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('an app and engine built while it is off install nothing: no span even once a provider exists', async () => {
    expect(tracingOn()).toBe(false);
    expect(await withSpan('x', {}, async () => 42)).toBe(42);
    const t = await createTestApp();
    const exporter = new InMemorySpanExporter();
    const stop = await startTracing({ exporter, immediate: true });
    try {
      const project = await t.createProject('Untraced');
      expect((await t.app.inject({ method: 'GET', url: `/projects/${project.id}`, headers: bearer(project.project_secret) })).statusCode).toBe(200);
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await stop();
      await t.close();
    }
  });
});
