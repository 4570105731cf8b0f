import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const metrics = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(t.adminToken) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('counts requests by route pattern and status, with latency histograms and process metrics', async () => {
    const project = await t.createProject();
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'GET', url: `/teams/team_${'0'.repeat(25)}${i}`, headers: bearer(project.project_secret) });
    }
    await t.app.inject({ method: 'GET', url: '/no/such/route' });
    const body = await metrics();
    expect(body).toContain('gatehouse_http_requests_total{method="GET",route="/teams/:team_id",status="404"} 3');
    expect(body).toContain('gatehouse_http_requests_total{method="POST",route="/projects",status="201"} 1');
    expect(body).toContain('gatehouse_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(body).toContain('gatehouse_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/teams/:team_id",status="404"}');
    expect(body).toContain('gatehouse_http_request_duration_seconds_count{method="GET",route="/teams/:team_id",status="404"} 3');
    expect(body).toMatch(/^gatehouse_process_cpu_user_seconds_total \d/m);
    expect(body).toMatch(/^gatehouse_nodejs_heap_size_used_bytes \d/m);
    // Ids never become label values.
    expect(body).not.toContain('team_0000');
  });

  it('needs the instance admin token', async () => {
    const project = await t.createProject();
    const anonymous = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(errorBody(anonymous).code).toBe('auth.unauthorized');
    for (const token of [project.project_secret, project.preview_secret]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(token) });
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).code).toBe('auth.forbidden');
    }
  });

  it('ignores query strings', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics?x=%00', headers: bearer(t.adminToken) });
    expect(response.statusCode).toBe(200);
  });
});
