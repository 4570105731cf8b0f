import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../container.js';
import { Id, NoContent, Timestamp } from '../http/schemas.js';
import { LANGUAGES, TEMPLATE_NAMES } from './templates.js';

const Params = Type.Object({ project_id: Id() });
const TemplateParams = Type.Object({
  project_id: Id(),
  template: Type.Union(TEMPLATE_NAMES.map((name) => Type.Literal(name)), { description: 'The message: recovery_code, sign_in_code or magic_link' }),
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

/** Per-project overrides of the mail templates (DESIGN §4.11); each part must parse as Liquid. */
export function mailTemplateRoutes(root: FastifyInstance, container: Container): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['mail'];
  const { mail } = container.flows;

  app.get(
    '/projects/:project_id/mail_templates',
    { config: { tenancy: { project: 'params' }, scope: 'project.write' }, schema: { tags, summary: "List the project's mail template overrides", params: Params, response: { 200: Type.Object({ mail_templates: Type.Array(Override) }) } } },
    async (request) => {
      return { mail_templates: await mail.overrides(request.params.project_id) };
    },
  );

  app.put(
    '/projects/:project_id/mail_templates/:template/:language',
    { config: { tenancy: { project: 'params' }, scope: 'project.write' }, schema: { tags, summary: 'Override the subject and bodies of one message in one language (validated by parsing)', params: TemplateParams, body: OverrideBody, response: { 200: Override } } },
    async (request) => {
      const { project_id, template, language } = request.params;
      return mail.setOverride(project_id, template, language, request.body);
    },
  );

  app.delete(
    '/projects/:project_id/mail_templates/:template/:language',
    { config: { tenancy: { project: 'params' }, scope: 'project.write' }, schema: { tags, summary: 'Remove an override (the built-in template applies again)', params: TemplateParams, response: { 204: NoContent } } },
    async (request, reply) => {
      const { project_id, template, language } = request.params;
      await mail.removeOverride(project_id, template, language);
      return reply.status(204).send(null);
    },
  );
}
