import { AppError } from '../../core/errors.js';
import { valueAt } from '../../schemas/document.js';
import { CODE_FIELD, METHOD_FIELD_PREFIX, type FlowStepDef } from '../definitions/types.js';
import { PasswordStrategy } from '../methods/password/strategy.js';
import { attributesFrom, validationFailed } from './fields.js';
import { invalidAction, type FlowRun, type Loaded } from './run.js';

export const PASSWORD_FIELD = `${METHOD_FIELD_PREFIX}password`;

/** The identifier a step asks for (a property with `x-unique`), if any. */
export function identifierField(step: FlowStepDef, loaded: Loaded): string | undefined {
  return (step.fields ?? []).find((field) => loaded.schema.identifiers.includes(field));
}

/** The identifier value collected so far in the frame (for lock-out keys and recovery). */
function collectedIdentifier(run: FlowRun, loaded: Loaded): string {
  for (const field of loaded.schema.identifiers) {
    const value = run.frame.c[field];
    if (value !== undefined) return value;
  }
  return '';
}

/**
 * Where a recovery code goes: the account's own stored value of the identifier the visitor typed,
 * never the typed text. Lookups fold case and Unicode (`victim@gıthub.com` finds
 * `victim@github.com`), so mailing the typed text would hand the code to a look-alike address.
 */
async function storedAddress(run: FlowRun, loaded: Loaded, userId: string): Promise<string | undefined> {
  const field = loaded.schema.identifiers.find((name) => run.frame.c[name] !== undefined);
  if (field === undefined) return undefined;
  const user = await run.deps.users.find(run.projectId, userId);
  const stored = user ? valueAt(user.attributes, field) : undefined;
  return typeof stored === 'string' && stored.includes('@') ? stored : undefined;
}

/** Whether submitting this step checks a secret (password on login, one-time code). */
export function checksCredentials(step: FlowStepDef): boolean {
  const fields = step.fields ?? [];
  return fields.includes(CODE_FIELD) || (fields.includes(PASSWORD_FIELD) && step.on_success !== 'create_user' && step.on_success !== 'set_password');
}

async function recordFactor(run: FlowRun, userId: string): Promise<void> {
  const { attempts } = run.deps;
  const factor = { method: 'password', userId };
  const attempt = async () => {
    if (run.entry.a) run.attempt = await attempts.recordFactor(run.projectId, run.entry.a, factor);
    else {
      run.attempt = await attempts.create(run.projectId, { sessionId: run.entry.ss, firstFactor: factor });
      run.entry.a = run.attempt.id;
    }
  };
  try {
    await attempt();
  } catch (error) {
    // The attempt expired or proves another user (the flow went back and identified someone else).
    if (!(error instanceof AppError) || !['att.not_found', 'att.invalid_state'].includes(error.code)) throw error;
    run.entry.a = undefined;
    await attempt();
  }
}

/**
 * Runs what a step does with accepted input: identify, create the user, send or check a
 * recovery code, verify or set the password. Returns an outcome trigger (`user_not_found`,
 * `user_already_exists`) when one applies.
 */
export async function runStep(run: FlowRun, loaded: Loaded, step: FlowStepDef, values: Map<string, string>): Promise<string | undefined> {
  const { deps, frame, projectId } = run;
  const password = values.get(PASSWORD_FIELD);
  const code = values.get(CODE_FIELD);
  const strategy = new PasswordStrategy(deps);
  const identField = identifierField(step, loaded);
  if (identField && values.has(identField) && frame.c[identField] !== values.get(identField)) {
    frame.u = undefined;
    frame.pv = undefined;
  }
  for (const [field, value] of values) if (field !== PASSWORD_FIELD && field !== CODE_FIELD) frame.c[field] = value;

  if (step.on_success === 'create_user') {
    const identifiers = loaded.schema.identifiers.map((f) => frame.c[f]).filter((v): v is string => v !== undefined);
    const created = await strategy.createUser({
      flowId: frame.id,
      projectId,
      schema: loaded.schema,
      schemaRef: loaded.def.user_schema ?? loaded.row.schema_uri,
      attributes: attributesFrom(Object.fromEntries(Object.entries(frame.c).filter(([f]) => loaded.schema.fields.has(f))), loaded.schema),
      password,
      identifiers,
    });
    if (created.taken) {
      if (step.transitions?.user_already_exists) return 'user_already_exists';
      throw validationFailed(frame.id, { [identField ?? loaded.schema.identifiers[0] ?? 'identifier']: 'error.user_already_exists' }, 'An account with this identifier already exists.');
    }
    frame.u = created.userId;
    if (password !== undefined && created.userId) {
      await recordFactor(run, created.userId);
      await strategy.succeeded(projectId, collectedIdentifier(run, loaded), created.userId, run.entry.ss);
    }
    return undefined;
  }

  if (identField && values.has(identField)) {
    const user = await deps.users.findByIdentifier(projectId, loaded.row.schema_id, values.get(identField)!);
    frame.u = user?.id;
    if (!user && step.transitions?.user_not_found) return 'user_not_found';
  }

  if (step.on_success === 'send_recovery_code') {
    const issued = await deps.codes.issue(projectId, frame.u, 'recovery');
    frame.oc = issued.id;
    frame.pv = undefined;
    const address = frame.u !== undefined ? await storedAddress(run, loaded, frame.u) : undefined;
    if (address !== undefined) {
      deps.courier.sendLater({
        projectId,
        to: address,
        subject: 'Your recovery code',
        text: `Your recovery code is ${issued.code}. It is valid for 10 minutes. If you did not ask for it, ignore this message.`,
        template: 'recovery_code',
      });
    }
  }

  if (code !== undefined) {
    const ok = frame.oc !== undefined && (await deps.codes.consume(projectId, frame.oc, code));
    if (!ok) {
      await deps.risk.recordFailure(projectId, undefined, run.ctx.ip, await run.riskRules());
      throw new AppError('flow.invalid_credentials', 'The code is invalid or has expired.', { flow_id: frame.id, fields: { code: 'error.invalid_code' } });
    }
    frame.oc = undefined;
    frame.pv = frame.u !== undefined;
  }

  if (password !== undefined) {
    if (step.on_success === 'set_password') {
      if (!frame.pv || frame.u === undefined) throw invalidAction(frame.id, 'set_password', 'Prove control of the account first.');
      // The password-set hook lifts the lock-out of the user's identifiers (flows/module.ts).
      await strategy.set(frame.id, projectId, frame.u, password);
      frame.pv = undefined;
      return undefined;
    }
    const identifier = collectedIdentifier(run, loaded);
    const signals = await run.signals(deps.risk.accountKey(projectId, identifier));
    await strategy.verify({ flowId: frame.id, projectId, identifier, userId: frame.u, password, ip: run.ctx.ip, rules: await run.riskRules(), signals });
    await recordFactor(run, frame.u!);
    await strategy.succeeded(projectId, identifier, frame.u!, run.entry.ss, signals);
  }
  return undefined;
}
