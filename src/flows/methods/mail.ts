import { NO_USER_ID } from '../../core/ids.js';
import { AppError } from '../../core/errors.js';
import { valueAt } from '../../schemas/document.js';
import type { StepContext } from './method.js';

/**
 * What the methods that mail a code share (recovery, e-mail codes and links): the address a
 * message goes to and the per-recipient budget every message takes first.
 */

/** The identifier field the flow collected (the one a user was identified by), if any. */
export function collectedIdentifierField({ run, loaded }: StepContext): string | undefined {
  return loaded.schema.identifiers.find((name) => run.frame.c[name] !== undefined);
}

/**
 * Where a message goes: the account's own stored value of the identifier the visitor typed,
 * never the typed text. Lookups fold case and Unicode (`victim@gıthub.com` finds
 * `victim@github.com`), so mailing the typed text would hand the code to a look-alike address.
 */
export async function storedAddress(ctx: StepContext, userId: string | undefined): Promise<{ field: string; address: string } | undefined> {
  const field = collectedIdentifierField(ctx);
  if (field === undefined) return undefined;
  // Nobody is looked up too, by an id no user has: the same statement for known and unknown addresses.
  const user = await ctx.run.deps.users.find(ctx.run.projectId, userId ?? NO_USER_ID);
  const stored = user ? valueAt(user.attributes, field) : undefined;
  return typeof stored === 'string' && stored.includes('@') ? { field, address: stored } : undefined;
}

/**
 * Takes one message of the recipient's budget (DESIGN §4.6a: 5 per address, folded like
 * identifiers, per project and 15 minutes, across flows and purposes), before anything is issued.
 * The key is the typed identifier folded, so unknown addresses cost and answer exactly like known
 * ones: 429 `auth.rate_limited` with `Retry-After` once the budget is spent.
 */
export async function takeMailBudget({ run }: StepContext): Promise<void> {
  const { deps, projectId } = run;
  const rules = await run.riskRules();
  if (rules.mail_per_recipient <= 0) return;
  const key = deps.risk.accountKey(projectId, run.collectedIdentifier());
  const windowMs = rules.mail_per_recipient_window_seconds * 1000;
  const now = deps.clock.now();
  if (await deps.courier.takeRecipientBudget(projectId, key, now, windowMs, rules.mail_per_recipient)) return;
  const started = await deps.courier.recipientWindowStart(projectId, key);
  const retryAfter = Math.max(1, Math.ceil(((started?.getTime() ?? now.getTime()) + windowMs - now.getTime()) / 1000));
  throw new AppError(
    'auth.rate_limited',
    'Too many messages were sent to this address; try again later.',
    { flow_id: run.frame.id, retry_after_seconds: retryAfter },
    { 'retry-after': String(retryAfter) },
  );
}

/**
 * Hands a templated mail to the courier once the answer has gone out (`RequestContext.afterAnswer`):
 * composing it (Liquid, both parts) then costs the answer no time, whether or not the address has
 * an account.
 */
export function mailAfterAnswer(ctx: StepContext, mail: Parameters<StepContext['run']['deps']['courier']['sendTemplateLater']>[0]): void {
  const { run } = ctx;
  const send = () => run.deps.courier.sendTemplateLater(mail);
  if (run.ctx.afterAnswer) run.ctx.afterAnswer(send);
  else send();
}
