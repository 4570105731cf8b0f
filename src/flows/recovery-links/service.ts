import type { Clock } from '../../core/clock.js';
import { randomSecret, sha256Hex } from '../../core/crypto.js';
import { AppError } from '../../core/errors.js';
import type { AttemptService, Handoff } from '../../attempts/service.js';
import type { Courier } from '../../courier/service.js';
import type { EventLog } from '../../events/service.js';
import { SYSTEM, type Actor } from '../../events/types.js';
import type { Language } from '../../courier/templates.js';
import type { ProjectService } from '../../projects/service.js';
import { valueAt } from '../../schemas/document.js';
import type { User, UserService } from '../../users/service.js';
import { takeMailBudget, type MailBudgetDeps } from '../risk/mail-budget.js';
import type { RiskRules } from '../risk/service.js';
import type { RecoveryLinkStore } from './store.js';

/** A link lives an hour (long enough to reach an inbox and be opened, short enough to be safe). */
export const RECOVERY_LINK_TTL_MS = 60 * 60 * 1000;
export const RECOVERY_LINK_PREFIX = 'gh_rl_';
const TOKEN_SHAPE = /^gh_rl_[A-Za-z0-9_-]{20,100}$/;

export interface RecoveryLinkDeps extends MailBudgetDeps {
  store: RecoveryLinkStore;
  users: UserService;
  attempts: AttemptService;
  courier: MailBudgetDeps['courier'] & Pick<Courier, 'sendTemplateLater'>;
  projects: Pick<ProjectService, 'row'>;
  riskRules: (projectId: string) => Promise<RiskRules>;
  publicUrl: string;
  clock: Clock;
  /** `recovery.requested` is written with the link */
  events: Pick<EventLog, 'transaction' | 'record'>;
}

export interface SentRecoveryLink {
  /** the address the mail went to (the user's own stored value) */
  sent_to: string;
  expires_at: string;
}

const linkInvalid = () => new AppError('link.invalid', 'The link is invalid, was already used or has expired.');

/**
 * Recovery links an operator sends (Keycloak's "execute actions" mail, Kratos' admin recovery):
 * a one-time, one-hour link mailed to the user's own address. Opening it signs the user in with a
 * `magic_link` factor (a mailed link proves the inbox: AAL1) and leads to the settings page, where
 * they set a new password. The token exists in the mail only: stored as its SHA-256, never
 * answered, never logged.
 */
export class RecoveryLinkService {
  constructor(private readonly deps: RecoveryLinkDeps) {}

  /** The user's e-mail identifier: a unique property of format `email` first, else any unique value with an `@`. */
  async addressOf(user: User): Promise<{ path: string; address: string } | undefined> {
    const schema = await this.deps.users.schemaOf(user);
    const identifiers = schema.model.properties.filter((p) => p.unique === 'project' || p.unique === 'team');
    const ordered = [...identifiers.filter((p) => p.format === 'email'), ...identifiers.filter((p) => p.format !== 'email')];
    for (const property of ordered) {
      const value = valueAt(user.attributes, property.path);
      if (typeof value === 'string' && value.includes('@')) return { path: property.path, address: value };
    }
    return undefined;
  }

  /** Stores a new link with its `recovery.requested` event (one transaction), then mails it. */
  async send(projectId: string | undefined, userId: string, options: { language?: Language; actor?: Actor } = {}): Promise<SentRecoveryLink> {
    const { deps } = this;
    const user = await deps.users.get(projectId, userId);
    const to = await this.addressOf(user);
    if (!to) throw new AppError('user.no_address', 'The user has no e-mail address to send a link to.', { user_id: user.id });
    await takeMailBudget(deps, user.projectId, await deps.riskRules(user.projectId), to.address);
    const token = randomSecret(RECOVERY_LINK_PREFIX);
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + RECOVERY_LINK_TTL_MS);
    await deps.events.transaction(async (trx) => {
      await deps.store.replace(trx, { token_hash: sha256Hex(token), project_id: user.projectId, user_id: user.id, created_at: now, expires_at: expiresAt, used_at: null });
      await deps.events.record(trx, { type: 'recovery.requested', projectId: user.projectId, actor: options.actor ?? SYSTEM, subjectId: user.id, data: { method: 'recovery_link', flow_id: null, known_account: true } });
    });
    const project = await deps.projects.row(user.projectId);
    deps.courier.sendTemplateLater({
      projectId: user.projectId,
      to: to.address,
      template: 'recovery_link',
      language: options.language ?? 'en',
      variables: { link: this.linkFor(user.projectId, token), project_name: project?.name ?? '', expires_minutes: RECOVERY_LINK_TTL_MS / 60_000, email: to.address },
    });
    return { sent_to: to.address, expires_at: expiresAt.toISOString() };
  }

  /** The hosted page that opens the link; it asks for one click first (mail scanners follow links). */
  linkFor(projectId: string, token: string): string {
    const url = new URL(`${this.deps.publicUrl}/ui/recover`);
    url.searchParams.set('project_id', projectId);
    url.searchParams.set('token', token);
    return url.toString();
  }

  /** Whether a link would still open (the page's first view); it takes nothing. */
  async isLive(projectId: string, token: string): Promise<boolean> {
    const hash = this.hashOf(token);
    return hash !== undefined && (await this.deps.store.peek(projectId, hash, this.deps.clock.now())) !== undefined;
  }

  /**
   * Opens a link: an attempt with a `magic_link` factor for its user, completed and handed off in
   * the transaction that takes the link (one statement: of concurrent openers one wins, the others
   * get 410 `link.invalid` and nothing is handed off). The address is then marked verified.
   */
  async redeem(projectId: string, token: string): Promise<Handoff> {
    const { deps } = this;
    const hash = this.hashOf(token);
    const userId = hash !== undefined ? await deps.store.peek(projectId, hash, deps.clock.now()) : undefined;
    if (hash === undefined || userId === undefined) throw linkInvalid();
    const attempt = await deps.attempts.create(projectId, { userId, firstFactor: { method: 'magic_link', payload: { channel: 'email', via: 'recovery_link' } } });
    const handoff = await deps.attempts.completeAndHandOff(projectId, attempt.id, {
      alongside: async (trx) => {
        if ((await deps.store.take(trx, projectId, hash, deps.clock.now())) !== userId) throw linkInvalid();
      },
    });
    const user = await deps.users.find(projectId, userId);
    const to = user ? await this.addressOf(user) : undefined;
    if (to) await deps.users.markVerified(projectId, userId, to.path);
    return handoff;
  }

  private hashOf(token: string): string | undefined {
    return TOKEN_SHAPE.test(token) ? sha256Hex(token) : undefined;
  }
}
