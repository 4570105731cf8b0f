import type { FastifyRequest } from 'fastify';
import type { FlowRuntime } from '../flows/runtime/engine.js';
import type { FlowRun } from '../flows/runtime/run.js';
import type { FlowResult, RequestContext } from '../flows/runtime/types.js';
import type { FormInput } from './form.js';

/**
 * A flow's current step as GET /flow/{id} shows it, plus the purpose of the flow on top of its
 * stack (a recovery pivoted from sign-in shows on /ui/login, yet its steps offer the way back).
 */
export async function readFlow(runtime: FlowRuntime, flowId: string, ctx: RequestContext, projectId: string | undefined): Promise<{ result: FlowResult; purpose?: string }> {
  const found = await runtime.locate(flowId, ctx, projectId);
  // An SSO callback's stored answer (once): a completed flow, no step to offer anything on.
  if ('result' in found) return { result: found.result };
  return { result: await runtime.show(found), purpose: found.frame.pu };
}

/** Where a submit starts from: enough to tell afterwards whether it finished a recovery. */
export interface Before {
  purpose: string;
  depth: number;
}

export const beforeSubmit = (run: FlowRun): Before => ({ purpose: run.frame.pu, depth: run.entry.f.length });

/**
 * True when this submit set a new password and so ended a recovery flow: it was on top, the submit
 * carried a password, and the flow completed (opened directly) or left the stack (pivoted from
 * sign-in, whose flow is on top again).
 */
export function finishedRecovery(before: Before, run: FlowRun, result: FlowResult, form: FormInput): boolean {
  if (before.purpose !== 'recovery' || !form.fields.password) return false;
  return result.body.step.type === 'complete' || run.entry.f.length < before.depth;
}

/**
 * A `redirect_uri` the allow-list refused, for the log: scheme, host and path only. It is no
 * credential, but its query or fragment may carry one (a code an attacker planted), so they stay out.
 */
export function refusedRedirect(request: FastifyRequest): string | undefined {
  const raw = (request.query as Record<string, unknown> | undefined)?.redirect_uri;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`.slice(0, 300);
  } catch {
    return '(not a URL)';
  }
}
