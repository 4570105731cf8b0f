import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { testEngineKind } from './helpers/engine.js';
import { cliEnv, killStartedServers, startServe, tempDir } from './helpers/process.js';

/**
 * `gatehouse serve` with OTEL_EXPORTER_OTLP_ENDPOINT: spans reach the collector over OTLP/HTTP
 * (JSON), and the ones still queued are sent on a graceful stop. The collector here is a loopback
 * HTTP server that keeps what it is sent. The server runs on its embedded database whatever the
 * pass, so this runs once, in the PGlite pass of `.ci/run`.
 */
describe.skipIf(testEngineKind() === 'postgres')('tracing to an OTLP/HTTP collector (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  const received: Array<{ path: string; body: string }> = [];
  let collector: Server;
  const dir = tempDir('gh-otlp-');

  afterAll(async () => {
    killStartedServers();
    await new Promise<void>((resolve) => (collector ? collector.close(() => resolve()) : resolve()));
    dir.remove();
  });

  it('exports the request and SQL spans of a served request, flushed when the process stops', async () => {
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', () => resolve()));
    const endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
    const admin = `gh_admin_${'o'.repeat(30)}`;
    const server = await startServe(cliEnv({ GATEHOUSE_DATA_DIR: dir.path, PORT: '0', GATEHOUSE_ADMIN_TOKEN: admin, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'gatehouse-test' }));
    const listed = await fetch(`${server.url}/projects`, { headers: { authorization: `Bearer ${admin}` } });
    expect(listed.status).toBe(200);
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((r) => r.path === '/v1/traces')).toBe(true);
    const all = received.map((r) => r.body).join('\n');
    expect(all).toContain('"GET /projects"');
    expect(all).toContain('gatehouse-test');
    expect(all).toContain('db.query.text');
    expect(all).not.toContain(admin);
  });
});
