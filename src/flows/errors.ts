import { AppError } from '../core/errors.js';

/** The flow's definition or state no longer allows it to go on (410 `flow.expired`). */
export function flowGone(flowId: string, why: string): AppError {
  return new AppError('flow.expired', `The flow can no longer continue (${why}); start a new one.`, { flow_id: flowId });
}

export function invalidAction(flowId: string, action: string, message = 'The action is not available on this step.'): AppError {
  return new AppError('flow.invalid_action', message, { flow_id: flowId, action });
}

export function validationFailed(flowId: string, fields: Record<string, string>, message = 'Some fields are missing or invalid.', extra: Record<string, unknown> = {}): AppError {
  return new AppError('flow.validation_failed', message, { flow_id: flowId, fields, ...extra });
}

/**
 * A refusal that still changes the flow's state (DESIGN §4.10: a failed passkey answer carries a
 * fresh challenge). The runtime encodes the changed state into `cookie`; the route sets it on the
 * error response.
 */
export class FlowStateChanged extends AppError {
  cookie?: string;
}
