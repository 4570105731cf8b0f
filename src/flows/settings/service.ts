import { Liquid } from 'liquidjs';
import { AppError } from '../../core/errors.js';
import type { Actor } from '../../events/types.js';
import type { ProjectService } from '../../projects/service.js';
import { riskRules, type RiskRules } from '../risk/service.js';

export interface Branding {
  layout: string;
  liquid_template: string;
  logo_url?: string;
  font_url?: string;
  hero_url?: string;
}

export interface FlowSettings {
  /** Exact redirect_uri values flows may complete to. */
  redirect_uris: string[];
  /** `rp_id`: the WebAuthn relying party ID instead of each origin's host (DESIGN §4.10) */
  passkeys: { rp_id?: string };
  risk: RiskRules;
}

export const DEFAULT_BRANDING: Branding = { layout: 'centered', liquid_template: '' };

const liquid = new Liquid({ strictFilters: true });

/** Rejects a template liquidjs cannot parse (400 req.invalid naming the field and the parser's message). */
export function assertTemplate(template: string): void {
  try {
    liquid.parse(template);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : 'cannot be parsed';
    throw new AppError('req.invalid', 'The liquid template cannot be parsed.', { errors: [{ path: 'body/liquid_template', message }] });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Per-project branding and flow settings, kept in the project's settings (`branding`, `flows`). */
export class FlowSettingsService {
  constructor(private readonly projects: ProjectService) {}

  async branding(projectId: string): Promise<Branding> {
    const settings = await this.projects.settings(projectId);
    return isObject(settings.branding) ? { ...DEFAULT_BRANDING, ...(settings.branding as Partial<Branding>) } : { ...DEFAULT_BRANDING };
  }

  async setBranding(projectId: string, input: Partial<Branding>, actor?: Actor): Promise<Branding> {
    if (input.liquid_template !== undefined) assertTemplate(input.liquid_template);
    const branding: Branding = { ...DEFAULT_BRANDING };
    for (const key of ['layout', 'liquid_template', 'logo_url', 'font_url', 'hero_url'] as const) {
      if (input[key] !== undefined) branding[key] = input[key]!;
    }
    await this.projects.updateSettings(projectId, { branding }, actor);
    return branding;
  }

  async flowSettings(projectId: string): Promise<FlowSettings> {
    const settings = await this.projects.settings(projectId);
    const flows = isObject(settings.flows) ? settings.flows : {};
    return {
      redirect_uris: Array.isArray(flows.redirect_uris) ? flows.redirect_uris.filter((u): u is string => typeof u === 'string') : [],
      passkeys: isObject(flows.passkeys) && typeof flows.passkeys.rp_id === 'string' ? { rp_id: flows.passkeys.rp_id } : {},
      risk: riskRules(flows.risk),
    };
  }

  async setFlowSettings(projectId: string, input: { redirect_uris?: string[]; passkeys?: { rp_id?: string }; risk?: Partial<RiskRules> }, actor?: Actor): Promise<FlowSettings> {
    const current = await this.flowSettings(projectId);
    const next: FlowSettings = {
      redirect_uris: input.redirect_uris ?? current.redirect_uris,
      passkeys: input.passkeys ?? current.passkeys,
      risk: riskRules({ ...current.risk, ...(input.risk ?? {}) }),
    };
    await this.projects.updateSettings(projectId, { flows: next }, actor);
    return next;
  }
}
