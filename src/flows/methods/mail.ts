import { NO_USER_ID } from '../../core/ids.js';
import type { Courier } from '../../courier/service.js';
import { valueAt } from '../../schemas/document.js';
import type { MethodContext } from './method.js';

/**
 * What the methods that mail a code share (recovery, e-mail codes and links): the address a
 * message goes to, and handing the message over once the answer is out. The per-recipient budget
 * every message takes first is the engine's (`ctx.takeMailBudget`).
 */

/** The identifier field the flow collected (the one a user was identified by), if any. */
export function collectedIdentifierField(ctx: MethodContext): string | undefined {
  return ctx.schema.identifiers.find((name) => ctx.collected(name) !== undefined);
}

/**
 * Where a message goes: the account's own stored value of the identifier the visitor typed,
 * never the typed text. Lookups fold case and Unicode (`victim@gıthub.com` finds
 * `victim@github.com`), so mailing the typed text would hand the code to a look-alike address.
 */
export async function storedAddress(ctx: MethodContext, userId: string | undefined): Promise<{ field: string; address: string } | undefined> {
  const field = collectedIdentifierField(ctx);
  if (field === undefined) return undefined;
  // Nobody is looked up too, by an id no user has: the same statement for known and unknown addresses.
  const user = await ctx.services.users.find(ctx.projectId, userId ?? NO_USER_ID);
  const stored = user ? valueAt(user.attributes, field) : undefined;
  return typeof stored === 'string' && stored.includes('@') ? { field, address: stored } : undefined;
}

/**
 * Hands a templated mail to the courier once the answer has gone out (`request.afterAnswer`):
 * composing it (Liquid, both parts) then costs the answer no time, whether or not the address has
 * an account.
 */
export function mailAfterAnswer(ctx: MethodContext, mail: Parameters<Courier['sendTemplateLater']>[0]): void {
  const send = () => ctx.services.courier.sendTemplateLater(mail);
  if (ctx.request.afterAnswer) ctx.request.afterAnswer(send);
  else send();
}
