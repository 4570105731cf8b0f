import { AppError } from '../../../core/errors.js';
import { checkPasswordPolicy } from '../../../passwords/policy.js';
import type { SchemaView } from '../../definitions/schema-view.js';
import type { RiskRules, RiskSignals } from '../../risk/service.js';
import type { FlowDeps } from '../../runtime/deps.js';
import { validationFailed } from '../../runtime/fields.js';

export function invalidCredentials(flowId: string): AppError {
  return new AppError('flow.invalid_credentials', 'The credentials are invalid.', { flow_id: flowId, fields: { password: 'error.invalid_credentials' } });
}

function policyFailure(flowId: string, error: AppError): AppError {
  return validationFailed(flowId, { password: 'error.password_policy' }, error.message, { rule: error.details.rule });
}

/**
 * The password method: verify on login (with lock-out and dummy hashing so that unknown, locked
 * and wrong answers are indistinguishable), set at registration and on recovery.
 */
export class PasswordStrategy {
  constructor(private readonly deps: FlowDeps) {}

  /**
   * Throws 400 flow.invalid_credentials unless the password is the user's and the account is not
   * locked, as `signals` (read with the identifier's account key) tell.
   */
  async verify(input: { flowId: string; projectId: string; identifier: string; userId?: string; password: string; ip: string; rules: RiskRules; signals: RiskSignals }): Promise<void> {
    const { risk, passwords } = this.deps;
    const accountKey = risk.accountKey(input.projectId, input.identifier);
    const blocked = risk.blocked(input.signals.account, input.rules);
    let ok = false;
    if (blocked || input.userId === undefined) await passwords.dummyVerify();
    else ok = await passwords.verify(input.projectId, input.userId, input.password);
    if (!ok) {
      // Attempts during a lock count against the IP only, so that a lock cannot be extended forever.
      await risk.recordFailure(input.projectId, blocked ? undefined : accountKey, input.ip, input.rules);
      throw invalidCredentials(input.flowId);
    }
  }

  async succeeded(projectId: string, identifier: string, userId: string, sessionId: string, signals?: RiskSignals): Promise<void> {
    await this.deps.risk.recordSuccess(projectId, this.deps.risk.accountKey(projectId, identifier), userId, sessionId, signals);
  }

  async set(flowId: string, projectId: string, userId: string, password: string): Promise<void> {
    try {
      await this.deps.passwords.setPassword(projectId, userId, password, { actor: 'self' });
    } catch (error) {
      if (error instanceof AppError && error.code === 'auth.password_policy') throw policyFailure(flowId, error);
      throw error;
    }
  }

  /**
   * Creates the user from the step's attributes and, with a password, sets it in the same
   * transaction (policy with the schema's own minimum checked first), so a refused password never
   * leaves a user behind. `taken` when the identifier already belongs to someone.
   */
  async createUser(input: { flowId: string; projectId: string; schema: SchemaView; schemaRef: string; attributes: Record<string, unknown>; password?: string; identifiers: string[] }): Promise<{ userId?: string; taken: boolean }> {
    const user = { schema: input.schemaRef, attributes: input.attributes };
    try {
      const created =
        input.password === undefined
          ? await this.deps.users.create(input.projectId, user, { actor: 'self' })
          : await this.deps.passwords.createUserWithPassword(input.projectId, user, input.password, { actor: 'self' });
      return { userId: created.id, taken: false };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'user.already_exists') return { taken: true };
      if (error.code === 'auth.password_policy') throw policyFailure(input.flowId, error);
      if (error.code === 'user.invalid') {
        const fields: Record<string, string> = {};
        for (const issue of (error.details.errors as Array<{ path: string; keyword?: string }> | undefined) ?? []) {
          const path = issue.path.replace(/^attributes\/?/, '').replaceAll('/', '.');
          fields[path || 'attributes'] = issue.keyword === 'required' ? 'error.required' : 'error.invalid';
        }
        throw validationFailed(input.flowId, fields);
      }
      throw error;
    }
  }
}
