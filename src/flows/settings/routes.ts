import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { assertRedirectUris, WEB_REDIRECTS } from '../../core/redirect-uris.js';
import { principalOf } from '../../http/auth.js';
import { Id } from '../../http/schemas.js';
import { actorRefOf } from '../../schemas/caller.js';
import { RISK_DEFAULTS, type RiskRules } from '../risk/service.js';
import type { FlowSettingsService } from './service.js';

const HttpUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });

export const BrandingSchema = Type.Object({
  layout: Type.String(),
  liquid_template: Type.String(),
  logo_url: Type.Optional(Type.String()),
  font_url: Type.Optional(Type.String()),
  hero_url: Type.Optional(Type.String()),
});

const BrandingBody = Type.Object(
  {
    layout: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z][a-z0-9_-]*$' })),
    liquid_template: Type.Optional(Type.String({ maxLength: 65_536 })),
    logo_url: Type.Optional(HttpUrl),
    font_url: Type.Optional(HttpUrl),
    hero_url: Type.Optional(HttpUrl),
  },
  { additionalProperties: false },
);

const RiskSchema = Type.Unsafe<Partial<RiskRules>>(
  Type.Object(
    Object.fromEntries(Object.keys(RISK_DEFAULTS).map((key) => [key, Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 }))])),
    { additionalProperties: false },
  ),
);

const HOSTNAME = '^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$';

const PasskeySettingsSchema = Type.Object(
  { rp_id: Type.Optional(Type.String({ pattern: HOSTNAME, description: 'Relying party ID: a registrable suffix of the origins\' host names (default: each origin\'s host)' })) },
  { additionalProperties: false },
);

const FlowSettingsSchema = Type.Object({
  redirect_uris: Type.Array(Type.String()),
  passkeys: PasskeySettingsSchema,
  risk: Type.Unsafe<RiskRules>(Type.Object(Object.fromEntries(Object.keys(RISK_DEFAULTS).map((key) => [key, Type.Number()])))),
});

const FlowSettingsBody = Type.Object(
  {
    redirect_uris: Type.Optional(Type.Array(HttpUrl, { maxItems: 50, uniqueItems: true })),
    passkeys: Type.Optional(PasskeySettingsSchema),
    risk: Type.Optional(RiskSchema),
  },
  { additionalProperties: false },
);

const Params = Type.Object({ project_id: Id() });

export function flowSettingsRoutes(root: FastifyInstance, settings: FlowSettingsService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['flow settings'];
  const read = ['flow_definition.read', 'project.write'];
  const write = ['flow_definition.write', 'project.write'];

  app.get('/projects/:project_id/branding', { config: { tenancy: { project: 'params' }, scope: read }, schema: { tags, summary: 'Read the branding of the flow UI', params: Params, response: { 200: BrandingSchema } } }, async (request) => {
    return settings.branding(request.params.project_id);
  });

  app.put(
    '/projects/:project_id/branding',
    { config: { tenancy: { project: 'params' }, scope: write, emits: ['project.settings_updated'] }, schema: { tags, summary: 'Replace the branding (the liquid template must parse)', params: Params, body: BrandingBody, response: { 200: BrandingSchema } } },
    async (request) => {
      return settings.setBranding(request.params.project_id, request.body, actorRefOf(principalOf(request)));
    },
  );

  app.get('/projects/:project_id/flow_settings', { config: { tenancy: { project: 'params' }, scope: read }, schema: { tags, summary: 'Read the redirect allow-list, passkey and risk settings', params: Params, response: { 200: FlowSettingsSchema } } }, async (request) => {
    return settings.flowSettings(request.params.project_id);
  });

  app.put(
    '/projects/:project_id/flow_settings',
    { config: { tenancy: { project: 'params' }, scope: write, emits: ['project.settings_updated'] }, schema: { tags, summary: 'Update the redirect allow-list, passkey and risk settings', params: Params, body: FlowSettingsBody, response: { 200: FlowSettingsSchema } } },
    async (request) => {
      assertRedirectUris(request.body.redirect_uris, 'body/redirect_uris', WEB_REDIRECTS);
      return settings.setFlowSettings(request.params.project_id, request.body, actorRefOf(principalOf(request)));
    },
  );
}
