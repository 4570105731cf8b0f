import { Liquid } from 'liquidjs';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import type { EventLog } from '../events/service.js';
import { SYSTEM, type Actor } from '../events/types.js';
import type { MailTemplateRow, MailTemplateStore } from './template-store.js';
import { DEFAULT_TEMPLATES, type Language, type MailTemplate, type TemplateName } from './templates.js';

/** What a message is rendered with (docs/codes-and-links.md lists them). */
export interface MailVariables {
  /** the 6 digits; a `recovery_link` mail has none */
  code?: string;
  link?: string;
  project_name: string;
  expires_minutes: number;
  email: string;
}

/** The values an override must render with to be stored, and that a preview shows (`GET …/preview`). */
export const SAMPLE_VARIABLES = { code: '123456', link: 'https://example.com/ui/link', project_name: 'Example', expires_minutes: 10, email: 'ann@example.com' } satisfies Required<MailVariables>;

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** An override as the management API shows it. */
export interface MailTemplateOverride {
  template: TemplateName;
  language: Language;
  subject: string;
  text: string;
  html?: string;
  updated_at: string;
}

const LIMITS = { subject: 500, body: 50_000 };
// Text parts and subjects are not HTML: values go in as they are. The HTML part escapes every
// output, so an attribute value can never inject markup. Rendering is bounded (no runaway loops).
const plain = new Liquid({ strictFilters: true, renderLimit: 1000, memoryLimit: 1e6 });
const markup = new Liquid({ strictFilters: true, outputEscape: 'escape', renderLimit: 1000, memoryLimit: 1e6 });

function parseOrRefuse(engine: Liquid, source: string, path: string): void {
  try {
    engine.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'cannot be parsed';
    throw new AppError('req.invalid', 'The mail template cannot be parsed.', { errors: [{ path, message }] });
  }
}

/**
 * Renders the messages: the project's override for the language when there is one, else the
 * built-in template. An override that fails to render falls back to the built-in one (logged), so
 * a broken template never stops a code from being delivered.
 */
export class MailComposer {
  constructor(
    private readonly store: MailTemplateStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** `mail_template.updated` and `.deleted` are written with the change */
    private readonly events: Pick<EventLog, 'transaction' | 'record'>,
  ) {}

  async compose(projectId: string | undefined, template: TemplateName, language: Language, variables: MailVariables): Promise<ComposedMail> {
    const fallback = DEFAULT_TEMPLATES[template][language];
    const override = projectId !== undefined ? await this.store.find(projectId, template, language) : undefined;
    if (override) {
      try {
        return await this.render({ subject: override.subject, text: override.text_body, html: override.html_body ?? fallback.html }, variables);
      } catch (error) {
        this.logger.error({ err: error, project_id: projectId, template, language }, 'mail template override failed to render; the built-in template is used');
      }
    }
    return this.render(fallback, variables);
  }

  private async render(source: MailTemplate, variables: MailVariables): Promise<ComposedMail> {
    const scope = { ...variables };
    const [subject, text, html] = await Promise.all([
      plain.parseAndRender(source.subject, scope),
      plain.parseAndRender(source.text, scope),
      markup.parseAndRender(source.html, scope),
    ]);
    // A subject is one line: a line break in it would start a new mail header.
    return { subject: subject.replace(/[\r\n]+/g, ' ').trim().slice(0, LIMITS.subject), text, html };
  }

  /** Stores an override after parsing each part (400 `req.invalid` naming the part that does not parse). */
  async setOverride(projectId: string, template: TemplateName, language: Language, input: { subject: string; text: string; html?: string }, actor: Actor = SYSTEM): Promise<MailTemplateOverride> {
    parseOrRefuse(plain, input.subject, 'body/subject');
    parseOrRefuse(plain, input.text, 'body/text');
    if (input.html !== undefined) parseOrRefuse(markup, input.html, 'body/html');
    // Parsing is not all: a template that cannot render with the documented variables is refused too.
    try {
      await this.render({ subject: input.subject, text: input.text, html: input.html ?? DEFAULT_TEMPLATES[template][language].html }, SAMPLE_VARIABLES);
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : 'cannot be rendered';
      throw new AppError('req.invalid', 'The mail template cannot be rendered.', { errors: [{ path: 'body', message }] });
    }
    const row: MailTemplateRow = {
      project_id: projectId,
      template,
      language,
      subject: input.subject,
      text_body: input.text,
      html_body: input.html ?? null,
      updated_at: this.clock.now(),
    };
    await this.events.transaction(async (trx) => {
      await this.store.upsert(trx, row);
      await this.events.record(trx, { type: 'mail_template.updated', projectId, actor, subjectId: projectId, data: { template, language } });
    });
    return toOverride(row);
  }

  async overrides(projectId: string): Promise<MailTemplateOverride[]> {
    return (await this.store.list(projectId)).map(toOverride);
  }

  /** Idempotent: removing no override changes nothing and writes no event. */
  async removeOverride(projectId: string, template: TemplateName, language: Language, actor: Actor = SYSTEM): Promise<void> {
    await this.events.transaction(async (trx) => {
      if (await this.store.delete(trx, projectId, template, language)) await this.events.record(trx, { type: 'mail_template.deleted', projectId, actor, subjectId: projectId, data: { template, language } });
    });
  }
}

function toOverride(row: MailTemplateRow): MailTemplateOverride {
  const override: MailTemplateOverride = {
    template: row.template as TemplateName,
    language: row.language as Language,
    subject: row.subject,
    text: row.text_body,
    updated_at: row.updated_at.toISOString(),
  };
  if (row.html_body !== null) override.html = row.html_body;
  return override;
}
