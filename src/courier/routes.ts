import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../http/auth.js';
import { Id, NoContent, Timestamp } from '../http/schemas.js';
import { actorRefOf } from '../schemas/caller.js';
import { SAMPLE_VARIABLES, type MailComposer } from './compose.js';
import type { Courier } from './service.js';
import { DEFAULT_TEMPLATES, LANGUAGES, TEMPLATE_NAMES } from './templates.js';

const Params = Type.Object({ project_id: Id() });
const TemplateParams = Type.Object({
  project_id: Id(),
  template: Type.Union(TEMPLATE_NAMES.map((name) => Type.Literal(name)), { description: 'The message: recovery_code, sign_in_code, magic_link or recovery_link' }),
  language: Type.Union(LANGUAGES.map((language) => Type.Literal(language)), { description: 'en or de' }),
});

const OverrideBody = Type.Object(
  {
    subject: Type.String({ minLength: 1, maxLength: 500, description: 'Liquid template of the subject' }),
    text: Type.String({ minLength: 1, maxLength: 50_000, description: 'Liquid template of the text part' }),
    html: Type.Optional(Type.String({ minLength: 1, maxLength: 50_000, description: 'Liquid template of the HTML part (values are HTML-escaped); default: the built-in one' })),
  },
  { additionalProperties: false },
);

const Override = Type.Object({
  template: Type.String(),
  language: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.Optional(Type.String()),
  updated_at: Timestamp,
});

const BuiltInTemplate = Type.Object({
  template: Type.String({ description: 'recovery_code, sign_in_code or magic_link' }),
  language: Type.String({ description: 'en or de' }),
  subject: Type.String({ description: 'Liquid template of the subject' }),
  text: Type.String({ description: 'Liquid template of the text part' }),
  html: Type.String({ description: 'Liquid template of the HTML part' }),
});

const Preview = Type.Object({
  template: Type.String(),
  language: Type.String(),
  overridden: Type.Boolean({ description: "Whether the project's override was used (else the built-in template)" }),
  subject: Type.String({ description: 'The rendered subject' }),
  text: Type.String({ description: 'The rendered text part' }),
  html: Type.String({ description: 'The rendered HTML part' }),
  variables: Type.Object(
    { code: Type.String(), link: Type.String(), project_name: Type.String(), expires_minutes: Type.Integer(), email: Type.String() },
    { description: 'The sample values the preview was rendered with' },
  ),
});


const OutboxMessage = Type.Object({
  id: Type.String(),
  recipient: Type.String(),
  subject: Type.String(),
  template: Type.String(),
  status: Type.String({ description: '`logged` (embedded courier), `pending`, `sent` or `failed`' }),
  body: Type.Union([Type.String(), Type.Null()], { description: 'The text part, kept by the embedded courier only (null when sent by SMTP)' }),
  attempts: Type.Integer(),
  created_at: Timestamp,
  sent_at: Type.Union([Timestamp, Type.Null()]),
});

const OutboxQuery = Type.Object(
  {
    recipient: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Only messages to this address' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

/** Under `flows` because the flow engine builds and holds the courier and the mail composer (src/flows/module.ts). */
export interface MailRouteDeps {
  flows: { mail: MailComposer; courier: Courier };
}

/** Per-project overrides of the mail templates (DESIGN §4.11; each part must parse as Liquid) and the outbox. */
export function mailTemplateRoutes(root: FastifyInstance, deps: MailRouteDeps): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['mail'];
  const { mail } = deps.flows;

  // Where a developer reads a code or link the embedded courier did not send: never the log (DESIGN §4.6a).
  app.get(
    '/projects/:project_id/outbox',
    { config: { tenancy: { project: 'params' }, scope: 'project.write' }, schema: { tags, summary: "The project's mail, newest first (bodies only from the embedded courier, for development)", params: Params, querystring: OutboxQuery, response: { 200: Type.Object({ messages: Type.Array(OutboxMessage) }) } } },
    async (request) => {
      const rows = await deps.flows.courier.outboxOf(request.params.project_id, { recipient: request.query.recipient, limit: request.query.limit ?? 20 });
      return { messages: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString(), sent_at: row.sent_at?.toISOString() ?? null })) };
    },
  );

  app.get(
    '/projects/:project_id/mail_templates',
    { config: { tenancy: { project: 'params' }, scope: 'project.write' }, schema: { tags, summary: "List the project's mail template overrides", params: Params, response: { 200: Type.Object({ mail_templates: Type.Array(Override) }) } } },
    async (request) => {
      return { mail_templates: await mail.overrides(request.params.project_id) };
    },
  );

  // The built-in messages are what an override starts from (and what applies again after a reset).
  app.get(
    '/projects/:project_id/mail_templates/built_in',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: { tags, summary: 'The built-in templates: every message in every language, as Liquid', params: Params, response: { 200: Type.Object({ mail_templates: Type.Array(BuiltInTemplate) }) } },
    },
    async () => {
      return { mail_templates: TEMPLATE_NAMES.flatMap((template) => LANGUAGES.map((language) => ({ template, language, ...DEFAULT_TEMPLATES[template][language] }))) };
    },
  );

  app.get(
    '/projects/:project_id/mail_templates/:template/:language/preview',
    {
      config: { tenancy: { project: 'params' }, scope: 'project.write' },
      schema: { tags, summary: 'The message as it would be sent (override or built-in), rendered with sample values', params: TemplateParams, response: { 200: Preview } },
    },
    async (request) => {
      const { project_id, template, language } = request.params;
      const overridden = (await mail.overrides(project_id)).some((override) => override.template === template && override.language === language);
      // The sender's own rendering, so the preview shows what a user would receive.
      const composed = await mail.compose(project_id, template, language, SAMPLE_VARIABLES);
      return { template, language, overridden, ...composed, variables: SAMPLE_VARIABLES };
    },
  );

  app.put(
    '/projects/:project_id/mail_templates/:template/:language',
    { config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['mail_template.updated'] }, schema: { tags, summary: 'Override the subject and bodies of one message in one language (validated by parsing)', params: TemplateParams, body: OverrideBody, response: { 200: Override } } },
    async (request) => {
      const { project_id, template, language } = request.params;
      return mail.setOverride(project_id, template, language, request.body, actorRefOf(principalOf(request)));
    },
  );

  app.delete(
    '/projects/:project_id/mail_templates/:template/:language',
    { config: { tenancy: { project: 'params' }, scope: 'project.write', emits: ['mail_template.deleted'] }, schema: { tags, summary: 'Remove an override (the built-in template applies again)', params: TemplateParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { project_id, template, language } = request.params;
      await mail.removeOverride(project_id, template, language, actorRefOf(principalOf(request)));
      return reply.status(204).send(null);
    },
  );
}
