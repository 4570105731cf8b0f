import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { constantTimeEqual } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import { FlowClient, methodTestProject } from '../flow-test-kit.js';
import type { MethodKit } from '../methods/method.js';
import type { AuthMethod } from '../methods/declaration.js';
import { registerMethod } from '../methods/registry.js';

/**
 * A method with a service of its own (issue 32, item 3: a method's services are wired by the method):
 * `createServices` builds it once from the kit when the app is built, and the method reaches it
 * through `ctx.servicesOf`, with no line in the flows module, the container or `MethodServices`.
 */
class BadgeStore {
  readonly badges = new Map<string, string>();
  constructor(private readonly kit: MethodKit) {}

  /** whether the user exists in the project and holds this badge (reads the database through the kit) */
  async holds(projectId: string, userId: string, badge: string): Promise<boolean> {
    const user = await this.kit.db.selectFrom('users').select('id').where('project_id', '=', projectId).where('id', '=', userId).executeTakeFirst();
    const stored = this.badges.get(userId);
    return user !== undefined && stored !== undefined && constantTimeEqual(stored, badge);
  }
}

const BADGE_FIELD = 'x-auth-methods#badge';
const built: BadgeStore[] = [];

const badgeMethod: AuthMethod = {
  name: 'badge',
  needsSchemaKey: false,
  field: { ref: BADGE_FIELD, type: 'text', maxLength: 16, secret: true },
  createServices(kit) {
    const store = new BadgeStore(kit);
    built.push(store);
    return store;
  },
  async verify(ctx, badge) {
    const store = ctx.servicesOf<BadgeStore>('badge');
    if (ctx.userId === undefined || !(await store.holds(ctx.projectId, ctx.userId, badge))) {
      throw new AppError('flow.invalid_credentials', 'The badge is wrong.', { flow_id: ctx.flowId, fields: { badge: 'error.invalid_credentials' } });
    }
    await ctx.prove({ method: 'badge' }, ctx.userId);
    return undefined;
  },
};
registerMethod(badgeMethod);

describe('a method with services of its own (createServices, ctx.servicesOf)', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let userId: string;
  const SCHEMA = 'https://example.com/schemas/badge';

  beforeAll(async () => {
    t = await createTestApp();
    ({ project, userId } = await methodTestProject(t, { schemaId: SCHEMA, email: 'badge@example.com', purposes: { badge_login: BADGE_FIELD } }));
  });
  afterAll(async () => t.close());

  const signIn = async (badge: string) => {
    const client = new FlowClient(t, '198.51.100.77');
    const started = await client.start({ project_id: project.id, purpose: 'badge_login' });
    expect(started.statusCode, started.body).toBe(200);
    return client.submit(started.json().id, 'sign_in', { email: 'badge@example.com', badge });
  };

  it('builds the service once per app, from the kit, and the method finds it on its port', async () => {
    const store = built.at(-1)!;
    expect(store).toBeInstanceOf(BadgeStore);
    store.badges.set(userId, 'blue-7');
    const wrong = await signIn('red-3');
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(wrong.json().details.fields).toEqual({ badge: 'error.invalid_credentials' });
    const right = await signIn('blue-7');
    expect(right.statusCode, right.body).toBe(200);
    expect(right.json().step.type).toBe('complete');
    // One app, one build: the requests above built nothing more.
    expect(built.filter((b) => b === store)).toHaveLength(1);
    expect(built.length).toBeGreaterThanOrEqual(1);
  });
});
