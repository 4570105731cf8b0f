import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal, type ConsoleApi } from './api.js';
import type { ConsolePageKit } from './kit.js';
import { afterWrite, pathIds } from './paths.js';
import type { FormProblem } from './pages/parts.js';
import { brandingMarkup, mailTemplatesMarkup, type BrandingValues, type MailPreview, type MailTemplateSource, type MailTemplatesPage } from './pages/mail.js';
import { consoleHref, consoleView, sendConsolePage } from './render.js';

const config = { page: true, tenancy: 'credential' } as const;

/** Path ids the API could not know are its 404, before any call. */
const unique = (values: string[]) => [...new Set(values)];
/** Textareas post CRLF; the built-in templates (and mail text parts) are written with LF. */
const lf = (value: string | null) => (value ?? '').replace(/\r\n?/g, '\n');

type TypedTemplate = { template: string; language: string; subject: string; text: string; html: string };

/** A project's mail templates (previews in every language, edit one, reset one) and its branding. */
export function mailPages(kit: ConsolePageKit): void {
  const { app, assets } = kit;


  /** The built-in templates say which messages and languages exist: the API's list, not the console's. */
  const builtInOf = async (project: ConsoleApi, projectId: string) => (await project.data<{ mail_templates: MailTemplateSource[] }>('GET', `/projects/${projectId}/mail_templates/built_in`)).mail_templates;

  /** A template and language from a form's path: one the API does not list is a 404. */
  const knownTemplate = async (request: FastifyRequest) => {
    const [projectId, template, language] = pathIds(request, 'project_id', 'template', 'language');
    const signedIn = await kit.asProject(request);
    const builtIn = await builtInOf(signedIn.project, projectId);
    if (!builtIn.some((one) => one.template === template && one.language === language)) throw new ApiRefusal({ status: 404, body: {} });
    return { ...signedIn, projectId, template, language };
  };

  const renderTemplates = async (request: FastifyRequest, reply: FastifyReply, status: number, options: { typed?: TypedTemplate; problem?: FormProblem; notice?: string } = {}) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const [builtIn, overrides] = await Promise.all([builtInOf(project, projectId), project.data<{ mail_templates: MailTemplateSource[] }>('GET', `/projects/${projectId}/mail_templates`)]);
    const templates = unique(builtIn.map((one) => one.template));
    const languages = unique(builtIn.map((one) => one.language));
    const previews = await Promise.all(
      templates.flatMap((template) => languages.map((language) => project.data<MailPreview>('GET', `/projects/${projectId}/mail_templates/${template}/${language}/preview`))),
    );
    const query = request.query as Record<string, unknown>;
    const template = options.typed?.template ?? (typeof query.template === 'string' && templates.includes(query.template) ? query.template : templates[0]);
    const language = options.typed?.language ?? (typeof query.language === 'string' && languages.includes(query.language) ? query.language : languages.includes(view.lang) ? view.lang : languages[0]);
    const override = overrides.mail_templates.find((one) => one.template === template && one.language === language);
    const stored = override ?? builtIn.find((one) => one.template === template && one.language === language);
    // The form shows what the operator typed after a refusal, else the override, else the built-in text.
    const editing = {
      template,
      language,
      overridden: override !== undefined,
      subject: options.typed?.subject ?? stored?.subject ?? '',
      text: options.typed?.text ?? stored?.text ?? '',
      // Only an override's own HTML part: an empty field keeps the built-in one.
      html: options.typed?.html ?? override?.html ?? '',
    };
    const page: MailTemplatesPage = { projectId, templates, languages, previews, editing, problem: options.problem, notice: options.notice };
    return sendConsolePage(reply, view, assets, status, view.t('console.mail.templates.title'), mailTemplatesMarkup(view, page), chrome);
  };

  const templatesPage = (request: FastifyRequest, projectId: string, query: Record<string, string>) =>
    consoleHref(consoleView(request), `/console/projects/${projectId}/mail_templates?${new URLSearchParams(query)}`);

  app.get('/console/projects/:project_id/mail_templates', { config, exposeHeadRoute: false }, async (request, reply) => {
    const notice = (request.query as Record<string, unknown>).notice;
    const text = notice === 'saved' || notice === 'reset' ? consoleView(request).t(`console.mail.notice.${notice}`) : undefined;
    return renderTemplates(request, reply, 200, { notice: text });
  });

  app.post('/console/projects/:project_id/mail_templates/:template/:language', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId, template, language } = await knownTemplate(request);
    const fields = kit.formOf(request.body);
    const typed = { template, language, subject: fields.get('subject') ?? '', text: lf(fields.get('text')), html: lf(fields.get('html')) };
    const answer = await project.call('PUT', `/projects/${projectId}/mail_templates/${template}/${language}`, {
      subject: typed.subject,
      text: typed.text,
      ...(typed.html.trim() !== '' ? { html: typed.html } : {}),
    });
    if (answer.status === 400) {
      const refusal = new ApiRefusal(answer);
      return renderTemplates(request, reply, 400, { typed, problem: refusal.problem });
    }
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return afterWrite(reply, templatesPage(request, projectId, { template, language, notice: 'saved' }));
  });

  app.post('/console/projects/:project_id/mail_templates/:template/:language/reset', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const { project, projectId, template, language } = await knownTemplate(request);
    await project.data('DELETE', `/projects/${projectId}/mail_templates/${template}/${language}`);
    return afterWrite(reply, templatesPage(request, projectId, { template, language, notice: 'reset' }));
  });

  const renderBranding = async (request: FastifyRequest, reply: FastifyReply, status: number, options: { typed?: BrandingValues; problem?: FormProblem; notice?: string } = {}) => {
    const view = consoleView(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project, chrome } = await kit.asProject(request);
    const branding = options.typed ?? (await project.data<BrandingValues>('GET', `/projects/${projectId}/branding`));
    return sendConsolePage(reply, view, assets, status, view.t('console.mail.branding.title'), brandingMarkup(view, projectId, branding, options), chrome);
  };

  app.get('/console/projects/:project_id/branding', { config, exposeHeadRoute: false }, async (request, reply) => {
    const notice = (request.query as Record<string, unknown>).notice === 'saved' ? consoleView(request).t('console.mail.branding.saved') : undefined;
    return renderBranding(request, reply, 200, { notice });
  });

  app.post('/console/projects/:project_id/branding', { config }, async (request, reply) => {
    kit.writeGuard(request);
    const [projectId] = pathIds(request, 'project_id');
    const { project } = await kit.asProject(request);
    const fields = kit.formOf(request.body);
    const typed: BrandingValues = { layout: fields.get('layout') ?? '', liquid_template: lf(fields.get('liquid_template')) };
    for (const name of ['logo_url', 'hero_url', 'font_url'] as const) {
      const value = (fields.get(name) ?? '').trim();
      if (value !== '') typed[name] = value;
    }
    // PUT replaces the branding: an address left empty is sent as absent, which removes it.
    const answer = await project.call('PUT', `/projects/${projectId}/branding`, typed);
    if (answer.status === 400) {
      const refusal = new ApiRefusal(answer);
      return renderBranding(request, reply, 400, { typed, problem: refusal.problem });
    }
    if (answer.status !== 200) throw new ApiRefusal(answer);
    return afterWrite(reply, consoleHref(consoleView(request), `/console/projects/${projectId}/branding?notice=saved`));
  });
}
