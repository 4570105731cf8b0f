import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type TOptional } from 'typebox';
import { principalOf } from '../http/auth.js';
import { Id } from '../http/schemas.js';
import { EVENT_SETTINGS_KEY, eventSettingsFrom, MAX_RETENTION_DAYS } from '../events/settings.js';
import { actorRefOf } from '../schemas/caller.js';
import type { ProjectService } from '../projects/service.js';
import { overridesFrom } from '../projects/ui-texts.js';
import type { SessionService } from './service.js';
import { MAX_TTL_LIMIT_SECONDS, MIN_WINDOW_SECONDS, SETTINGS_KEY, sessionSettingsFrom, validateSessionSettings } from './settings.js';

const Seconds = (description: string) => Type.Integer({ minimum: MIN_WINDOW_SECONDS, maximum: MAX_TTL_LIMIT_SECONDS, description });

const SessionSettingsSchema = Type.Object({
  ttl_seconds: Seconds('Lifetime of an authenticated session when the exchange names no ttl (default 86400)'),
  max_ttl_seconds: Seconds('Largest ttl an exchange may ask for (default and limit 2592000 = 720 h)'),
  aal1_window_seconds: Seconds('Freshness window of urn:nist:aal:1 (default 86400)'),
  aal2_window_seconds: Seconds('Freshness window of urn:nist:aal:2 (default 43200); at most aal1_window_seconds'),
});

const TextTable = Type.Record(Type.String({ pattern: '^[a-z0-9_.-]{1,100}$' }), Type.String({ maxLength: 1000 }), {
  maxProperties: 300,
  description: 'text key -> text',
});
const UiSettingsSchema = Type.Object(
  {
    texts: Type.Object(
      { en: Type.Optional(TextTable), de: Type.Optional(TextTable) },
      { additionalProperties: false, description: 'Per-language overrides of the hosted UI\'s text keys (docs/hosted-ui.md)' },
    ),
  },
  { additionalProperties: false },
);

const EventSettingsSchema = Type.Object(
  { retention_days: Type.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS, description: 'Days the event log keeps an event (default 90); older ones are deleted by the sweeper (docs/events.md)' }) },
  { additionalProperties: false },
);

const SettingsSchema = Type.Object({ sessions: SessionSettingsSchema, ui: UiSettingsSchema, events: EventSettingsSchema });

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
    ui: Type.Optional(UiSettingsSchema),
    events: Type.Optional(EventSettingsSchema),
  },
  { additionalProperties: false },
);

/** The stored `ui` section as the API shows it (overrides only; the built-in texts are not listed). */
const uiSettingsFrom = (settings: Record<string, unknown>) => ({ texts: overridesFrom(settings) });

export interface ProjectSettingsRouteDeps {
  projects: ProjectService;
  sessions: SessionService;
}

/**
 * GET/PATCH /projects/{project_id}/settings (scope project.write): the session lifetimes and the
 * assurance-level freshness windows of a project. PATCH merges the given fields over the current
 * values; the result must satisfy ttl <= max_ttl and aal2 window <= aal1 window. `ui.texts`
 * (the hosted UI's per-project text overrides) is replaced as a whole when given.
 */
export function projectSettingsRoutes(root: FastifyInstance, { projects, sessions }: ProjectSettingsRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const params = Type.Object({ project_id: Id() });

  app.get(
    '/projects/:project_id/settings',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: { tags: ['projects'], summary: 'Read project settings (session TTLs, freshness windows)', params, response: { 200: SettingsSchema } },
    },
    async (request) => {
      const settings = await projects.settings(request.params.project_id);
      return { sessions: sessionSettingsFrom(settings), ui: uiSettingsFrom(settings), events: eventSettingsFrom(settings) };
    },
  );

  app.patch(
    '/projects/:project_id/settings',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['project.settings_updated'] },
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
      const current = sessionSettingsFrom(await projects.settings(projectId));
      const next = { ...current, ...request.body.sessions };
      validateSessionSettings(next);
      // Only the sections the request names are written (and named by the event).
      const patch: Record<string, unknown> = {};
      if (request.body.sessions) patch[SETTINGS_KEY] = next;
      if (request.body.ui) patch.ui = { texts: request.body.ui.texts };
      if (request.body.events) patch[EVENT_SETTINGS_KEY] = { retention_days: request.body.events.retention_days };
      const stored = Object.keys(patch).length > 0 ? await projects.updateSettings(projectId, patch, actorRefOf(principalOf(request))) : await projects.settings(projectId);
      return { sessions: sessionSettingsFrom(stored), ui: uiSettingsFrom(stored), events: eventSettingsFrom(stored) };
    },
  );
}
