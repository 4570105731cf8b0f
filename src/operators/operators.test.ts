import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../test/helpers/app.js';
import { nonCanonicalTwin } from '../core/base64-test-kit.js';
import { createUser } from '../sessions/test-fixtures.js';
import { operator, systemProjectOf } from './testing.js';

describe('operators: the system project and roles (API)', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer(t.adminToken);
  });
  afterAll(async () => t.close());

  const grant = (userId: string, body: Record<string, unknown>, headers = admin) => t.app.inject({ method: 'PUT', url: `/operators/${userId}/roles`, headers, payload: body });
  const revoke = (userId: string, projectId?: string, headers = admin) =>
    t.app.inject({ method: 'DELETE', url: `/operators/${userId}/roles${projectId ? `?project_id=${projectId}` : ''}`, headers });

  it('creates no system project by itself; ten concurrent first calls create exactly one', async () => {
    const count = async () => (await sql<{ n: number }>`select count(*)::int as n from instance`.execute(t.container.db)).rows[0].n;
    expect(await count()).toBe(0);
    const projectsBefore = (await t.app.inject({ method: 'GET', url: '/projects?limit=100', headers: admin })).json().projects.length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.app.inject({ method: 'GET', url: '/operators/system_project', headers: admin })));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const ids = new Set(answers.map((answer) => answer.json().project_id));
    expect(ids.size).toBe(1);
    expect(await count()).toBe(1);
    const projects = (await t.app.inject({ method: 'GET', url: '/projects?limit=100', headers: admin })).json().projects;
    expect(projects.length).toBe(projectsBefore + 1);
    expect(projects.filter((p: { name: string }) => p.name === 'system').map((p: { id: string }) => p.id)).toEqual([...ids]);
    // Its user schema: passwords, passkeys, TOTP and recovery codes.
    const schema = await t.container.schemas.defaultFor([...ids][0]);
    const methods = (JSON.parse(JSON.stringify(schema)) as { document?: Record<string, unknown> }).document?.['x-auth-methods'] as Record<string, { enabled: boolean }> | undefined;
    for (const method of ['password', 'passkey', 'totp', 'recovery_code']) expect(methods?.[method]?.enabled, method).toBe(true);
  });

  it('refuses to delete the system project (409 proj.system_project)', async () => {
    const system = await t.container.operators.systemProject();
    const response = await t.app.inject({ method: 'DELETE', url: `/projects/${system}`, headers: admin });
    expect(response.statusCode).toBe(409);
    expect(errorBody(response).code).toBe('proj.system_project');
    expect((await t.app.inject({ method: 'GET', url: `/projects/${system}`, headers: admin })).statusCode).toBe(200);
  });

  it('grants, lists and revokes roles; the last instance admin stays', async () => {
    const system = await systemProjectOf(t);
    const project = await t.createProject('Managed');
    const ada = await createUser(t, system.id);
    const bob = await createUser(t, system.id);

    const granted = await grant(ada, { role: 'instance_admin' });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toEqual({ user_id: ada, role: 'instance_admin', project_id: null, granted_at: t.clock.now().toISOString() });
    t.clock.advance(1000);
    // Granting it again changes nothing.
    expect((await grant(ada, { role: 'instance_admin' })).json()).toEqual(granted.json());
    const projectAdmin = await grant(bob, { role: 'project_admin', project_id: project.id });
    expect(projectAdmin.statusCode, projectAdmin.body).toBe(200);
    expect(projectAdmin.json()).toMatchObject({ user_id: bob, role: 'project_admin', project_id: project.id });
    expect(await t.container.operators.rolesOf(bob)).toEqual([projectAdmin.json()]);

    // Paginated, oldest grant first.
    const first = await t.app.inject({ method: 'GET', url: '/operators?limit=1', headers: admin });
    expect(first.statusCode).toBe(200);
    expect(first.json().roles).toEqual([granted.json()]);
    const second = await t.app.inject({ method: 'GET', url: `/operators?limit=1&page_token=${first.json().next_page_token}`, headers: admin });
    expect(second.json()).toEqual({ roles: [projectAdmin.json()] });

    // The last instance admin keeps the role; once another admin exists, it can go.
    const last = await revoke(ada);
    expect(last.statusCode).toBe(409);
    expect(errorBody(last).code).toBe('operator.last_instance_admin');
    expect((await grant(bob, { role: 'instance_admin' })).statusCode).toBe(200);
    expect((await revoke(ada)).statusCode).toBe(204);
    expect(errorBody(await revoke(ada)).code).toBe('operator.role_not_found');
    expect((await revoke(bob)).statusCode).toBe(409);

    expect((await revoke(bob, project.id)).statusCode).toBe(204);
    const again = await revoke(bob, project.id);
    expect(again.statusCode).toBe(404);
    expect(errorBody(again).code).toBe('operator.role_not_found');
    expect(await t.container.operators.rolesOf(bob)).toEqual([expect.objectContaining({ role: 'instance_admin' })]);
  });

  it('refuses roles that cannot be: wrong user, wrong project, wrong shape, wrong caller', async () => {
    const system = await systemProjectOf(t);
    const project = await t.createProject('Other');
    const outsider = await createUser(t, project.id);
    const carol = await createUser(t, system.id);
    const codeOf = async (response: Awaited<ReturnType<typeof grant>>, status: number) => {
      expect(response.statusCode, response.body).toBe(status);
      return errorBody(response).code;
    };
    // Only users of the system project are operators.
    expect(await codeOf(await grant(outsider, { role: 'instance_admin' }), 404)).toBe('user.not_found');
    expect(await codeOf(await grant('usr_00000000000000000000000000', { role: 'instance_admin' }), 404)).toBe('user.not_found');
    expect(await codeOf(await revoke(outsider), 404)).toBe('user.not_found');
    // A project admin's project exists and is not the system project.
    expect(await codeOf(await grant(carol, { role: 'project_admin', project_id: system.id }), 404)).toBe('proj.not_found');
    expect(await codeOf(await grant(carol, { role: 'project_admin', project_id: 'proj_00000000000000000000000000' }), 404)).toBe('proj.not_found');
    // instance_admin names no project; project_admin names one.
    expect(await codeOf(await grant(carol, { role: 'instance_admin', project_id: project.id }), 400)).toBe('req.invalid');
    expect(await codeOf(await grant(carol, { role: 'project_admin' }), 400)).toBe('req.invalid');
    expect(await codeOf(await grant(carol, { role: 'owner' }), 400)).toBe('req.invalid');
    // The roles are the instance admin's: a project secret is refused, no credential is 401.
    const secret = bearer(project.project_secret);
    expect(await codeOf(await grant(carol, { role: 'instance_admin' }, secret), 403)).toBe('auth.forbidden');
    expect(await codeOf(await revoke(carol, undefined, secret), 403)).toBe('auth.forbidden');
    expect((await t.app.inject({ method: 'GET', url: '/operators', headers: secret })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/operators/system_project', headers: secret })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/operators' })).statusCode).toBe(401);
    expect(await t.container.operators.rolesOf(carol)).toEqual([]);
  });

  it('drops the roles with the user and with the project', async () => {
    const system = await systemProjectOf(t);
    const project = await t.createProject('Short-lived');
    const dora = await createUser(t, system.id);
    expect((await grant(dora, { role: 'project_admin', project_id: project.id })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/projects/${project.id}`, headers: admin })).statusCode).toBe(204);
    expect(await t.container.operators.rolesOf(dora)).toEqual([]);
    const other = await t.createProject('Another');
    expect((await grant(dora, { role: 'project_admin', project_id: other.id })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/users/${dora}`, headers: admin })).statusCode).toBe(204);
    expect(await t.container.operators.rolesOf(dora)).toEqual([]);
  });
});

describe('operators: the last instance admin stays, however many are removed at once', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer(t.adminToken);
  });
  afterAll(async () => t.close());

  const admins = async () => (await t.container.db.selectFrom('operator_roles').select('user_id').where('role', '=', 'instance_admin').execute()).map((row) => row.user_id);
  const makeAdmins = async (count: number) => {
    const system = await systemProjectOf(t);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = await createUser(t, system.id);
      await t.container.operators.grant(id, 'instance_admin', undefined);
      ids.push(id);
    }
    return ids;
  };

  it('of three admins revoking each other\'s role at once, one keeps it (the others 204, it 409)', async () => {
    const ids = await makeAdmins(3);
    const answers = await Promise.all(ids.map((id) => t.app.inject({ method: 'DELETE', url: `/operators/${id}/roles`, headers: admin })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 204, 409]);
    expect(errorBody(answers.find((answer) => answer.statusCode === 409)!).code).toBe('operator.last_instance_admin');
    expect(await admins()).toHaveLength(1);
  });

  it('erasing users is refused for the last instance admin, also when several are erased at once; another project sees 404', async () => {
    const [kept] = await admins();
    const more = await makeAdmins(2);
    const answers = await Promise.all([kept, ...more].map((id) => t.app.inject({ method: 'DELETE', url: `/users/${id}`, headers: admin })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([204, 204, 409]);
    expect(errorBody(answers.find((answer) => answer.statusCode === 409)!).code).toBe('operator.last_instance_admin');
    const left = await admins();
    expect(left).toHaveLength(1);
    const system = await systemProjectOf(t);
    expect(await t.container.users.find(system.id, left[0])).toBeTruthy();
    // Another project's credential learns nothing about the system project's users: 404, not 409.
    const other = await t.createProject('Elsewhere');
    const foreign = await t.app.inject({ method: 'DELETE', url: `/users/${left[0]}`, headers: bearer(other.project_secret) });
    expect(foreign.statusCode).toBe(404);
    expect(errorBody(foreign).code).toBe('user.not_found');
    expect(await admins()).toEqual(left);
  });
});

describe('operators: their access tokens and project tokens', () => {
  let t: TestApp;
  let a: Awaited<ReturnType<TestApp['createProject']>>;
  let b: Awaited<ReturnType<TestApp['createProject']>>;
  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createProject('A');
    b = await t.createProject('B');
  });
  afterAll(async () => t.close());

  const mint = (token: string, projectId: string) => t.app.inject({ method: 'POST', url: '/operators/me/project_tokens', headers: bearer(token), payload: { project_id: projectId } });
  const listProjects = (token: string) => t.app.inject({ method: 'GET', url: '/projects', headers: bearer(token) });

  it('a system-project user without a role holds no management credential (401)', async () => {
    const nobody = await operator(t);
    expect((await listProjects(nobody.accessToken)).statusCode).toBe(401);
    expect((await mint(nobody.accessToken, a.id)).statusCode).toBe(401);
    // The token still works where it always did.
    expect((await t.app.inject({ method: 'GET', url: '/auth/userinfo', headers: bearer(nobody.accessToken) })).statusCode).toBe(200);
  });

  it('another project\'s user token is no management credential, whatever roles exist', async () => {
    const { exchangeSession, userSession } = await import('../oauth/testing.js');
    const session = await userSession(t, a);
    const token = (await exchangeSession(t, session)).json().access_token as string;
    expect((await listProjects(token)).statusCode).toBe(401);
  });

  it('an instance admin\'s token issued to any client but the console\'s is no management credential', async () => {
    const { exchangeSession } = await import('../oauth/testing.js');
    const root = await operator(t, [{ role: 'instance_admin' }]);
    expect((await listProjects(root.accessToken)).statusCode).toBe(200);
    // The same user's token from another client of the system project (a service key's token exchange).
    const { userSession } = await import('../oauth/testing.js');
    const session = await userSession(t, await systemProjectOf(t));
    await t.container.operators.grant(session.userId, 'instance_admin', undefined);
    const other = (await exchangeSession(t, session)).json().access_token as string;
    expect((await listProjects(other)).statusCode).toBe(401);
  });

  it('an instance admin acts as the admin: every project, every route; it may mint project tokens', async () => {
    const root = await operator(t, [{ role: 'instance_admin' }]);
    const listed = await listProjects(root.accessToken);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().projects.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect((await t.app.inject({ method: 'GET', url: `/users?project_id=${b.id}`, headers: bearer(root.accessToken) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/operators', headers: bearer(root.accessToken) })).statusCode).toBe(200);
    const minted = await mint(root.accessToken, b.id);
    expect(minted.statusCode, minted.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/users', headers: bearer(minted.json().token) })).statusCode).toBe(200);
    // Not for the system project, not for an unknown one.
    const system = await t.container.operators.systemProject();
    expect(errorBody(await mint(root.accessToken, system)).code).toBe('proj.not_found');
    expect(errorBody(await mint(root.accessToken, 'proj_00000000000000000000000000')).code).toBe('proj.not_found');
  });

  it('a project admin lists their projects and mints tokens for them only; other routes refuse their token', async () => {
    const pat = await operator(t, [{ role: 'project_admin', projectId: a.id }]);
    const listed = await listProjects(pat.accessToken);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().projects.map((p: { id: string }) => p.id)).toEqual([a.id]);
    // Everything else goes through a project token.
    for (const url of [`/users?project_id=${a.id}`, `/projects/${a.id}`, '/operators', '/operators/system_project']) {
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(pat.accessToken) });
      expect(response.statusCode, url).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: '/projects', headers: bearer(pat.accessToken), payload: { name: 'Mine now' } })).statusCode).toBe(403);
    const other = await mint(pat.accessToken, b.id);
    expect(other.statusCode).toBe(404);
    expect(errorBody(other).code).toBe('proj.not_found');
    const minted = await mint(pat.accessToken, a.id);
    expect(minted.statusCode, minted.body).toBe(200);
    expect(minted.json()).toEqual({ token: expect.stringMatching(/^gh_op_/), expires_at: new Date(t.clock.now().getTime() + 5 * 60_000).toISOString() });
  });

  it('the admin token and project credentials mint no project token (403)', async () => {
    for (const token of [t.adminToken, a.project_secret, a.preview_secret]) {
      const response = await mint(token, a.id);
      expect(response.statusCode, response.body).toBe(403);
      expect(errorBody(response)).toMatchObject({ code: 'auth.forbidden', details: { required_scope: 'operator' } });
    }
  });

  it('a project token acts as the project secret on its project and answers 404 for another project\'s rows', async () => {
    const pat = await operator(t, [{ role: 'project_admin', projectId: a.id }]);
    const token = bearer((await mint(pat.accessToken, a.id)).json().token);
    const { userSession } = await import('../oauth/testing.js');
    const theirs = await userSession(t, b);
    const ours = await createUser(t, a.id);
    expect((await t.app.inject({ method: 'GET', url: '/users', headers: token })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/users/${ours}`, headers: token })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/teams?project_id=${a.id}`, headers: token, payload: { name: 'Ops' } })).statusCode).toBe(201);
    const probes: Array<[string, string, string]> = [
      ['GET', `/users?project_id=${b.id}`, 'proj.not_found'],
      ['GET', `/users/${theirs.userId}`, 'user.not_found'],
      ['DELETE', `/users/${theirs.userId}`, 'user.not_found'],
      ['GET', `/sessions/${theirs.sessionId}`, 'sess.not_found'],
      ['GET', `/sessions?project_id=${b.id}&user_id=${theirs.userId}`, 'proj.not_found'],
      ['GET', `/users/${theirs.userId}/credentials`, 'user.not_found'],
      ['GET', `/projects/${b.id}`, 'proj.not_found'],
      ['PATCH', `/projects/${b.id}`, 'proj.not_found'],
    ];
    for (const [method, url, code] of probes) {
      const response = await t.app.inject({ method: method as 'GET', url, headers: token, ...(method === 'PATCH' ? { payload: { name: 'Taken' } } : {}) });
      expect(response.statusCode, `${method} ${url} ${response.body}`).toBe(404);
      expect(errorBody(response).code, `${method} ${url}`).toBe(code);
    }
    // Deleting a session is idempotent (204 for any id), and another project's stays.
    expect((await t.app.inject({ method: 'DELETE', url: `/sessions/${theirs.sessionId}`, headers: token })).statusCode).toBe(204);
    expect(await t.container.sessions.isAlive(theirs.sessionId)).toBe(true);
    // Instance routes stay the admin's.
    expect((await t.app.inject({ method: 'GET', url: '/projects', headers: token })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/operators', headers: token })).statusCode).toBe(403);
    expect((await mint(token.authorization.slice(7), a.id)).statusCode).toBe(403);
    // It may rotate its project's secret, as the secret itself may.
    const rotated = await t.app.inject({ method: 'POST', url: `/projects/${a.id}/rotate_secret`, headers: token });
    expect(rotated.statusCode, rotated.body).toBe(200);
    a = { ...a, project_secret: rotated.json().project_secret };
    // The audit trail names the operator.
    const schema = (await t.container.schemas.defaultFor(a.id))!.id;
    const created = await t.app.inject({ method: 'POST', url: '/users', headers: token, payload: { schema, attributes: { email: 'audited@example.com' } } });
    expect(created.statusCode, created.body).toBe(201);
    const audit = await t.app.inject({ method: 'GET', url: `/users/${created.json().id}/audit`, headers: token });
    expect(audit.json().events?.[0]?.actor ?? audit.body).toBe(`operator:${pat.userId}`);
  });

  it('a project token lives 5 minutes (the injected clock), and ends with the role', async () => {
    const pat = await operator(t, [{ role: 'project_admin', projectId: a.id }]);
    const token = bearer((await mint(pat.accessToken, a.id)).json().token);
    const use = () => t.app.inject({ method: 'GET', url: '/users', headers: token });
    t.clock.advance(5 * 60_000 - 1000);
    expect((await use()).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await use()).statusCode).toBe(401);

    const again = await operator(t, [{ role: 'project_admin', projectId: a.id }]);
    const fresh = bearer((await mint(again.accessToken, a.id)).json().token);
    expect((await t.app.inject({ method: 'GET', url: '/users', headers: fresh })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/operators/${again.userId}/roles?project_id=${a.id}`, headers: bearer(t.adminToken) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/users', headers: fresh })).statusCode).toBe(401);
    // And the operator's own token no longer lists the project (no role: 401).
    expect((await listProjects(again.accessToken)).statusCode).toBe(401);
  });

  it('a tampered or foreign-looking project token is 401', async () => {
    const pat = await operator(t, [{ role: 'project_admin', projectId: a.id }]);
    const token: string = (await mint(pat.accessToken, a.id)).json().token;
    // Replace the second-to-last character (the last may carry only padding bits) with one it is not.
    const flipped = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    expect(flipped).not.toBe(token);
    for (const bad of [flipped, 'gh_op_', 'gh_op_v1.x.y', `gh_op_${'a'.repeat(2000)}`]) {
      expect((await t.app.inject({ method: 'GET', url: '/users', headers: bearer(bad) })).statusCode, bad.slice(0, 40)).toBe(401);
    }
  });

  it('a project token has one textual form: texts that decode to the same sealed bytes are 401 like garbage', async () => {
    const pat = await operator(t, [{ role: 'project_admin', projectId: a.id }]);
    const token: string = (await mint(pat.accessToken, a.id)).json().token;
    const [version, iv, body] = token.slice('gh_op_'.length).split('.');
    const sameBytes = (text: string) => (text.length % 4 >= 2 ? [nonCanonicalTwin(text)] : [`${text}A`]);
    const variants = [
      ...sameBytes(body).map((text) => `gh_op_${version}.${iv}.${text}`),
      ...sameBytes(iv).map((text) => `gh_op_${version}.${text}.${body}`),
      `${token}.more`,
    ];
    for (const bad of variants) {
      const [, ivText, bodyText] = bad.slice('gh_op_'.length).split('.');
      expect(Buffer.from(ivText!, 'base64url').equals(Buffer.from(iv!, 'base64url')) && Buffer.from(bodyText!, 'base64url').equals(Buffer.from(body!, 'base64url'))).toBe(true);
      const response = await t.app.inject({ method: 'GET', url: '/users', headers: bearer(bad) });
      expect(response.statusCode, bad).toBe(401);
      expect(errorBody(response).code).toBe(errorBody(await t.app.inject({ method: 'GET', url: '/users', headers: bearer('gh_op_garbage') })).code);
    }
    expect((await t.app.inject({ method: 'GET', url: '/users', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('an operator\'s access token dies with their session', async () => {
    const root = await operator(t, [{ role: 'instance_admin' }]);
    expect((await listProjects(root.accessToken)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/sessions/${root.sessionId}`, headers: bearer(t.adminToken) })).statusCode).toBe(204);
    expect((await listProjects(root.accessToken)).statusCode).toBe(401);
  });
});
