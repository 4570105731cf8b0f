import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngineKind } from '../../test/helpers/engine.js';
import { operator, systemProjectOf } from '../operators/testing.js';
import { eventsOf, typesOf } from './test-kit.js';

const definition = JSON.parse(readFileSync(new URL('../flows/definitions/fixtures/login-register-definition.json', import.meta.url), 'utf8'));
const customerSchema = JSON.parse(readFileSync(new URL('../flows/definitions/fixtures/user-schema.json', import.meta.url), 'utf8'));

/** Operator changes through the management API: each writes its event, naming the acting credential. */
describe(`management changes are events (${testEngineKind()})`, () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  /** One request a second later than the last: the log orders events by time, then by (random) id. */
  const call = (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = project.project_secret) => {
    t.clock.advance(1000);
    return t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  };
  /** The events written by `work`, oldest first. */
  const during = async (work: () => Promise<unknown>) => {
    const before = new Set((await eventsOf(t, project.id)).map((event) => event.id));
    t.clock.advance(1000);
    await work();
    return (await eventsOf(t, project.id)).filter((event) => !before.has(event.id)).reverse();
  };

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject('Managed');
  });
  afterAll(async () => t.close());

  it('project: created by the admin token (the seeding is part of it), renamed, secret rotated, settings changed', async () => {
    expect(await eventsOf(t, project.id)).toEqual([expect.objectContaining({ type: 'project.created', actor: { kind: 'admin', id: null }, subject: { kind: 'project', id: project.id }, data: { name: 'Managed' } })]);
    const events = await during(async () => {
      expect((await call('PATCH', `/projects/${project.id}`, { name: 'Renamed' })).statusCode).toBe(200);
      expect((await call('PATCH', `/projects/${project.id}/settings`, { sessions: { ttl_seconds: 3600 }, events: { retention_days: 30 } })).statusCode).toBe(200);
      expect((await call('PUT', `/projects/${project.id}/branding`, { layout: 'centered' })).statusCode).toBe(200);
      expect((await call('PUT', `/projects/${project.id}/flow_settings`, { redirect_uris: ['https://shop.example/back'] })).statusCode).toBe(200);
      const rotated = await call('POST', `/projects/${project.id}/rotate_secret`);
      expect(rotated.statusCode).toBe(200);
      project.project_secret = rotated.json().project_secret;
    });
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['project.updated', { changed: ['name'] }],
      ['project.settings_updated', { sections: ['sessions', 'events'] }],
      ['project.settings_updated', { sections: ['branding'] }],
      ['project.settings_updated', { sections: ['flow_settings'] }],
      ['project.secret_rotated', { previous_valid_until: expect.any(String) }],
    ]);
    expect(events.every((event) => event.actor.kind === 'project_secret')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(project.project_secret);
  });

  it('teams, service keys, schemas, flow definitions, SSO providers and OIDC clients', async () => {
    const events = await during(async () => {
      const team = await call('POST', `/teams?project_id=${project.id}`, { name: 'Support' });
      expect((await call('DELETE', `/teams/${team.json().id}`)).statusCode).toBe(204);
      const key = await call('POST', `/projects/${project.id}/service_keys`, { name: 'billing', scopes: ['user.read'] });
      expect((await call('DELETE', `/projects/${project.id}/service_keys/${key.json().id}`)).statusCode).toBe(204);
      expect((await call('DELETE', `/projects/${project.id}/service_keys/${key.json().id}`)).statusCode).toBe(204);
      expect((await call('POST', `/schemas?project_id=${project.id}`, customerSchema)).statusCode).toBe(201);
      const created = await call('POST', '/flow_definitions', { schema_uri: customerSchema.$id, flow_definition: { ...definition.flow_definition, name: 'events-flow' } });
      expect(created.statusCode, created.body).toBe(201);
      expect((await call('PUT', `/flow_definitions/${created.json().id}`, { schema_uri: customerSchema.$id, flow_definition: { ...definition.flow_definition, name: 'events-flow', status: 'inactive' } })).statusCode).toBe(200);
      expect((await call('DELETE', `/flow_definitions/${created.json().id}`)).statusCode).toBe(204);
      expect((await call('PUT', `/projects/${project.id}/sso_providers/acme`, { name: 'Acme', template: 'google', client_id: 'c', client_secret: 'upstream-secret-value' })).statusCode).toBe(201);
      expect((await call('PUT', `/projects/${project.id}/sso_providers/acme`, { name: 'Acme 2', template: 'google', client_id: 'c' })).statusCode).toBe(200);
      expect((await call('DELETE', `/projects/${project.id}/sso_providers/acme`)).statusCode).toBe(204);
      expect((await call('DELETE', `/projects/${project.id}/sso_providers/acme`)).statusCode).toBe(204);
      const client = await call('POST', `/projects/${project.id}/oauth_clients`, { name: 'Shop web', redirect_uris: ['https://shop.example/cb'] });
      expect(client.statusCode, client.body).toBe(201);
      expect((await call('DELETE', `/projects/${project.id}/oauth_clients/${client.json().client_id}`)).statusCode).toBe(204);
      return client.json().client_secret;
    });
    expect(events.map((event) => event.type)).toEqual([
      'team.created',
      'team.deleted',
      'service_key.created',
      'service_key.deleted',
      'schema.created',
      'flow_definition.created',
      'flow_definition.updated',
      'flow_definition.deleted',
      'sso_provider.created',
      'sso_provider.updated',
      'sso_provider.deleted',
      'oauth_client.created',
      'oauth_client.deleted',
    ]);
    expect(events.find((event) => event.type === 'flow_definition.updated')?.data).toEqual({ name: 'events-flow', purposes: Object.keys(definition.flow_definition.purposes), status: 'inactive' });
    expect(events.find((event) => event.type === 'schema.created')?.data).toEqual({ uri: customerSchema.$id, team_id: null });
    expect(events.find((event) => event.type === 'oauth_client.created')?.data).toEqual({ name: 'Shop web', public: false });
    expect(JSON.stringify(events)).not.toMatch(/upstream-secret-value|gh_[a-z]{2}_/);
  });

  it('users: created, replaced, password set then changed, unlocked, erased with their sessions', async () => {
    const schema = (await t.container.schemas.defaultFor(project.id))!;
    let userId = '';
    const events = await during(async () => {
      const created = await call('POST', '/users', { schema: schema.uri, attributes: { email: 'ann@example.com', name: { given: 'Ann' } } });
      userId = created.json().id;
      expect((await call('PATCH', `/users/${userId}`, { attributes: { email: 'ann@example.com', name: { given: 'Anne' } } })).statusCode).toBe(200);
      expect((await call('PUT', `/users/${userId}/password`, { password: 'first password 123' })).statusCode).toBe(204);
      expect((await call('PUT', `/users/${userId}/password`, { password: 'second password 456' })).statusCode).toBe(204);
      expect((await call('POST', `/users/${userId}/unlock`)).statusCode).toBe(204);
      const { handoffFor } = await import('../sessions/test-fixtures.js');
      const handoff = await handoffFor(t, project.id, userId, { factors: [{ method: 'password' }] });
      expect((await call('POST', `/sessions/exchange?project_id=${project.id}`, { handoff_token: handoff.token })).statusCode).toBe(200);
      expect((await call('DELETE', `/users/${userId}`)).statusCode).toBe(204);
    });
    expect(events.map((event) => [event.type, event.subject.id === userId ? 'user' : event.subject.kind, event.actor.kind])).toEqual([
      ['user.created', 'user', 'project_secret'],
      ['user.updated', 'user', 'project_secret'],
      ['credential.added', 'user', 'project_secret'],
      ['password.changed', 'user', 'project_secret'],
      ['user.unlocked', 'user', 'project_secret'],
      ['session.created', 'session', 'self'],
      ['login.succeeded', 'user', 'self'],
      ['session.revoked', 'session', 'project_secret'],
      ['user.deleted', 'user', 'project_secret'],
    ]);
    expect(events[1].data).toEqual({ changed: ['name'] });
    expect(events[2].data).toEqual({ method: 'password', credential_id: expect.stringMatching(/^cred_/) });
    expect(events[7].data).toEqual({ user_id: userId, reason: 'user_deleted' });
    expect(JSON.stringify(events)).not.toMatch(/password 123|password 456|\$argon2/);
    // Every event about the user, by subject.
    expect((await typesOf(t, project.id, { subject_id: userId })).length).toBe(7);
  });

  it("deleting a project is project.deleted in the system project's log (the project's own log goes with it); a refused deletion writes none", async () => {
    const system = await systemProjectOf(t);
    const doomed = await t.createProject('Doomed');
    expect((await call('DELETE', `/projects/${doomed.id}`, undefined, doomed.project_secret)).statusCode).toBe(403);
    expect((await call('DELETE', `/projects/${doomed.id}`, undefined, t.adminToken)).statusCode).toBe(204);
    expect((await call('DELETE', `/projects/${doomed.id}`, undefined, t.adminToken)).statusCode).toBe(404);
    const deleted = await eventsOf(t, system.id, { type: 'project.deleted', subject_id: doomed.id });
    expect(deleted.map((event) => [event.actor, event.subject, event.data])).toEqual([[{ kind: 'admin', id: null }, { kind: 'project', id: doomed.id }, { name: 'Doomed' }]]);
  });

  it('mail template overrides: stored and removed; a refused or empty change writes none', async () => {
    const url = `/projects/${project.id}/mail_templates/recovery_code/de`;
    const events = await during(async () => {
      expect((await call('PUT', url, { subject: 'Code {{ code }}', text: 'Ihr Code: {{ code }}' })).statusCode).toBe(200);
      expect((await call('PUT', url, { subject: 'Code', text: 'Ihr Code: {{ code }}', html: '<p>{{ code }}</p>' })).statusCode).toBe(200);
      expect((await call('PUT', url, { subject: 'Code', text: 'broken {% if %}' })).statusCode).toBe(400);
      expect((await call('DELETE', url)).statusCode).toBe(204);
      expect((await call('DELETE', url)).statusCode).toBe(204);
      const elsewhere = await t.createProject('Elsewhere');
      expect((await call('PUT', `/projects/${elsewhere.id}/mail_templates/recovery_code/de`, { subject: 'x', text: 'y' })).statusCode).toBe(404);
    });
    expect(events.map((event) => [event.type, event.actor, event.subject, event.data])).toEqual([
      ['mail_template.updated', { kind: 'project_secret', id: null }, { kind: 'project', id: project.id }, { template: 'recovery_code', language: 'de' }],
      ['mail_template.updated', { kind: 'project_secret', id: null }, { kind: 'project', id: project.id }, { template: 'recovery_code', language: 'de' }],
      ['mail_template.deleted', { kind: 'project_secret', id: null }, { kind: 'project', id: project.id }, { template: 'recovery_code', language: 'de' }],
    ]);
    expect(JSON.stringify(events)).not.toContain('Ihr Code');
  });

  it('operators act as themselves: an instance admin operator\'s changes name the operator', async () => {
    const admin = await operator(t, [{ role: 'instance_admin' }]);
    const system = await systemProjectOf(t);
    const renamed = await call('PATCH', `/projects/${project.id}`, { preview_origins: ['https://shop.example'] }, admin.accessToken);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await eventsOf(t, project.id, { type: 'project.updated' }))[0]).toMatchObject({ actor: { kind: 'operator', id: admin.userId }, data: { changed: ['preview_origins'] } });
    const colleague = await operator(t);
    const granted = await call('PUT', `/operators/${colleague.userId}/roles`, { role: 'project_admin', project_id: project.id }, admin.accessToken);
    expect(granted.statusCode, granted.body).toBe(200);
    expect((await call('DELETE', `/operators/${colleague.userId}/roles?project_id=${project.id}`, undefined, admin.accessToken)).statusCode).toBe(204);
    const roles = await eventsOf(t, system.id, { subject_id: colleague.userId, type: 'operator.role_granted,operator.role_revoked' });
    expect(roles.map((event) => [event.type, event.actor, event.data]).reverse()).toEqual([
      ['operator.role_granted', { kind: 'operator', id: admin.userId }, { user_id: colleague.userId, role: 'project_admin', project_id: project.id }],
      ['operator.role_revoked', { kind: 'operator', id: admin.userId }, { user_id: colleague.userId, project_id: project.id }],
    ]);
  });
});
