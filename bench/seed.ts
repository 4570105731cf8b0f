/**
 * Seeds a benchmark project over the public API (project, team, users with passwords, one
 * logged-in session) and measures the `_zflow` cookie of the default journeys on the way.
 */
import { exchange, runJourney, type JourneyResult } from './journey.js';
import { mintHandoffTokensDirect } from './seed-direct.js';

export interface Seeded {
  projectId: string;
  projectSecret: string;
  emails: string[];
  password: string;
  sessionToken?: string;
  sessionId?: string;
  loginWorks: boolean;
  createUserQuery?: string;
  createUserBody?: string;
  zflow: Record<string, JourneyResult['steps']>;
  notes: Partial<Record<'session' | 'handoff' | 'login' | 'users', string>>;
  mintHandoffTokens(count: number): Promise<string[]>;
}

async function call(baseUrl: string, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

export async function seed(options: { baseUrl: string; adminToken: string; users: number; databaseUrl?: string; secret: string }): Promise<Seeded> {
  const { baseUrl } = options;
  const notes: Seeded['notes'] = {};
  const project = await call(baseUrl, 'POST', '/projects', options.adminToken, { name: 'bench' });
  if (project.status !== 201) throw new Error(`seed: POST /projects answered ${project.status}`);
  const projectId: string = project.json.id;
  const secret: string = project.json.project_secret;
  // All the load comes from one address: the per-IP flow-start budget (DESIGN §4.6a) is raised to
  // its maximum rather than lifted (0), so every start still pays for taking it, as in production.
  const lifted = await call(baseUrl, 'PUT', `/projects/${projectId}/flow_settings`, secret, { risk: { ip_flow_starts_per_minute: 1_000_000 } });
  if (lifted.status !== 200) throw new Error(`seed: PUT flow_settings answered ${lifted.status}`);
  const password = 'bench-Password-1234!';
  const emails: string[] = [];
  const zflow: Seeded['zflow'] = {};

  const team = await call(baseUrl, 'POST', `/teams?project_id=${projectId}`, secret, { name: 'bench' });
  const teamId: string | undefined = team.json?.id;
  const schemas = await call(baseUrl, 'GET', `/schemas?project_id=${projectId}&revisions=latest`, secret);
  const schemaId: string | undefined = schemas.json?.schemas?.[0]?.id;
  let createUserQuery: string | undefined;
  let createUserBody: string | undefined;
  if (!schemaId || !teamId) {
    notes.users = `schemas or teams unavailable (GET /schemas ${schemas.status}, POST /teams ${team.status})`;
  } else {
    createUserQuery = `project_id=${projectId}&team_id=${teamId}`;
    const run = Date.now().toString(36);
    createUserBody = JSON.stringify({ schema: schemaId, attributes: { email: `load-${run}-{n}@bench.example`, name: { given: 'Load', family: 'Test' } } });
    for (let i = 0; i < options.users; i++) {
      const email = `user${i}@bench.example`;
      const user = await call(baseUrl, 'POST', `/users?${createUserQuery}`, secret, { schema: schemaId, attributes: { email, name: { given: 'User', family: String(i) } } });
      if (user.status >= 300) {
        notes.users = `POST /users answered ${user.status} ${user.json?.code ?? ''}`;
        break;
      }
      const set = await call(baseUrl, 'PUT', `/users/${user.json.id}/password`, secret, { password });
      if (set.status >= 300) notes.users = `PUT password answered ${set.status}`;
      emails.push(email);
    }
  }

  let loginWorks = false;
  let sessionToken: string | undefined;
  let sessionId: string | undefined;
  if (emails.length > 0) {
    const login = await runJourney(baseUrl, projectId, 'login', { email: emails[0], identifier: emails[0], password });
    zflow.login = login.steps;
    const register = await runJourney(baseUrl, projectId, 'register', { email: 'fresh@bench.example', password, 'name.given': 'Fresh', 'name.family': 'User' });
    zflow.register = register.steps;
    if (login.ok && login.handoffToken) {
      loginWorks = true;
      const session = await exchange(baseUrl, projectId, secret, login.handoffToken);
      sessionToken = session.session_token;
      sessionId = session.session.session_id;
    } else {
      notes.login = login.error ?? 'login journey did not complete';
    }
  }
  if (!sessionToken) {
    const anonymous = await call(baseUrl, 'POST', '/sessions', secret, { project_id: projectId });
    if (anonymous.status < 300) {
      sessionToken = anonymous.json.session_token;
      sessionId = anonymous.json.session.session_id;
      notes.session = 'anonymous session (login flow unavailable)';
    } else {
      notes.session = `POST /sessions answered ${anonymous.status}`;
    }
  }

  return {
    projectId,
    projectSecret: secret,
    emails,
    password,
    sessionToken,
    sessionId,
    loginWorks,
    createUserQuery,
    createUserBody,
    zflow,
    notes,
    mintHandoffTokens: async (count) => {
      if (!options.databaseUrl) {
        notes.handoff = 'embedded mode: handoff tokens are minted through the shared database, which PGlite does not share across processes';
        return [];
      }
      try {
        return await mintHandoffTokensDirect({ databaseUrl: options.databaseUrl, secret: options.secret, projectId, userEmail: emails[0], count });
      } catch (error) {
        notes.handoff = (error as Error).message;
        return [];
      }
    },
  };
}
