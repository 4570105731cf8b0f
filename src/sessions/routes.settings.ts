import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type TOptional } from 'typebox';
import type { Container } from '../container.js';
import { principalOf } from '../http/auth.js';
import { Id } from '../http/schemas.js';
import { MAX_TTL_LIMIT_SECONDS, MIN_WINDOW_SECONDS, SETTINGS_KEY, sessionSettingsFrom, validateSessionSettings } from './settings.js';

const Seconds = (description: string) => Type.Integer({ minimum: MIN_WINDOW_SECONDS, maximum: MAX_TTL_LIMIT_SECONDS, description });

const SessionSettingsSchema = Type.Object({
  ttl_seconds: Seconds('Lifetime of an authenticated session when the exchange names no ttl (default 86400)'),
  max_ttl_seconds: Seconds('Largest ttl an exchange may ask for (default and limit 2592000 = 720 h)'),
  aal1_window_seconds: Seconds('Freshness window of urn:nist:aal:1 (default 86400)'),
  aal2_window_seconds: Seconds('Freshness window of urn:nist:aal:2 (default 43200); at most aal1_window_seconds'),
});

const SettingsSchema = Type.Object({ sessions: SessionSettingsSchema });

const SettingsPatch = Type.Object(
  {
    sessions: Type.Optional(
      Type.Object(
        Object.fromEntries(Object.entries(SessionSettingsSchema.properties).map(([key, value]) => [key, Type.Optional(value)])) as {
          [K in keyof typeof SessionSettingsSchema.properties]: TOptional<(typeof SessionSettingsSchema.properties)[K]>;
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * GET/PATCH /projects/{project_id}/settings (scope project.write): the session lifetimes and the
 * assurance-level freshness windows of a project. PATCH merges the given fields over the current
 * values; the result must satisfy ttl <= max_ttl and aal2 window <= aal1 window.
 */
export function projectSettingsRoutes(root: FastifyInstance, { projects, sessions }: Container): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const params = Type.Object({ project_id: Id() });

  app.get(
    '/projects/:project_id/settings',
    {
      config: { scope: 'project.write' },
      schema: { tags: ['projects'], summary: 'Read project settings (session TTLs, freshness windows)', params, response: { 200: SettingsSchema } },
    },
    async (request) => {
      await projects.requireAccess(principalOf(request), request.params.project_id);
      return { sessions: sessionSettingsFrom(await projects.settings(request.params.project_id)) };
    },
  );

  app.patch(
    '/projects/:project_id/settings',
    {
      config: { scope: 'project.write' },
      schema: {
        tags: ['projects'],
        summary: 'Change project settings (fields not given are kept)',
        params,
        body: SettingsPatch,
        response: { 200: SettingsSchema },
      },
    },
    async (request) => {
      const projectId = request.params.project_id;
      await projects.requireAccess(principalOf(request), projectId);
      const current = sessionSettingsFrom(await projects.settings(projectId));
      const next = { ...current, ...request.body.sessions };
      validateSessionSettings(next);
      const stored = await projects.updateSettings(projectId, { [SETTINGS_KEY]: next });
      sessions.forgetSettings(projectId);
      return { sessions: sessionSettingsFrom(stored) };
    },
  );
}
