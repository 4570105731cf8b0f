import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { FlowClient, registerThroughFlow, STRONG_PASSWORD } from './flow-test-kit.js';

describe('flow runtime: default login and register', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
  });
  afterAll(async () => t.close());

  it('seeds login, register, recovery and settings definitions for a new project', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/flow_definitions', headers: bearer(project.project_secret) });
    expect(response.statusCode).toBe(200);
    const names = response.json().flow_definitions.map((d: { name: string }) => d.name).sort();
    expect(names).toEqual(['login', 'recovery', 'register', 'settings']);
  });

  it('starts a login flow with an anonymous session and the first visible step', async () => {
    const client = new FlowClient(t);
    const response = await client.start({ project_id: project.id, purpose: 'login' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.id).toMatch(/^flow_/);
    expect(body.session_id).toMatch(/^sess_/);
    expect(body.session_token).toMatch(/^gh_st_/);
    expect(body.step).toMatchObject({
      name: 'identify',
      type: 'form',
      texts: { title_key: 'step.identify.title', description_key: 'step.identify.description' },
      fields: [{ name: 'email', type: 'email', text_key: 'field.email', required: true }],
    });
    expect(body.step.actions[0]).toEqual({ name: 'continue', kind: 'submit', text_key: 'action.continue', primary: true });
    expect(body.branding).toEqual({ layout: 'centered', liquid_template: '' });
    const cookie = response.cookies.find((c) => c.name === '_zflow');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 600 });
  });

  it('registers, then logs in and returns a handoff token', async () => {
    const registered = await registerThroughFlow(t, project.id, 'ann@example.com');
    expect(registered.statusCode, registered.body).toBe(200);
    expect(registered.json().step).toMatchObject({ name: 'done', type: 'complete', behavior: 'show' });
    expect(registered.json().handoff_token).toMatch(/^gh_ho_/);

    const client = new FlowClient(t);
    const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
    const identified = await client.submit(started.id, 'continue', { email: 'ann@example.com' });
    expect(identified.statusCode, identified.body).toBe(200);
    expect(identified.json().step.name).toBe('password');
    expect(identified.json().step.fields).toEqual([{ name: 'password', type: 'password', text_key: 'field.password', required: true }]);
    const done = await client.submit(identified.json().id, 'sign_in', { password: STRONG_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json();
    expect(body.step).toMatchObject({ type: 'complete', behavior: 'show' });
    expect(body.handoff_token).toMatch(/^gh_ho_/);
    expect(new Date(body.handoff_token_expires_at).getTime() - t.clock.now().getTime()).toBe(60_000);
    // The finished flow leaves a tombstone (DESIGN §4.5): a reload answers 410 flow.completed.
    const reload = await client.get(identified.json().id);
    expect(reload.statusCode).toBe(410);
    expect(errorBody(reload).code).toBe('flow.completed');
  });

  it('answers wrong passwords and unknown users with the same status and body', async () => {
    const attempt = async (email: string, password: string) => {
      const client = new FlowClient(t, `198.51.100.${Math.floor(Math.random() * 200)}`);
      const started = (await client.start({ project_id: project.id, purpose: 'login' })).json();
      const identified = await client.submit(started.id, 'continue', { email });
      expect(identified.json().step.name).toBe('password');
      const response = await client.submit(identified.json().id, 'sign_in', { password });
      const body = errorBody(response);
      expect(body.details.flow_id).toBe(identified.json().id);
      return { status: response.statusCode, body: { ...body, details: { ...body.details, flow_id: 'x' } } };
    };
    await registerThroughFlow(t, project.id, 'known@example.com');
    const wrong = await attempt('known@example.com', 'not the right password');
    const unknown = await attempt('nobody@example.com', 'not the right password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('flow.invalid_credentials');
    expect(unknown).toEqual(wrong);
  });
});
