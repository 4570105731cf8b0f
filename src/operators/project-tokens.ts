import { addMs, MINUTE, type Clock } from '../core/clock.js';
import { notFoundError } from '../core/errors.js';
import type { Principal } from '../core/principal.js';
import type { SealedBox } from '../core/sealed-box.js';

export const PROJECT_TOKEN_PREFIX = 'gh_op_';
/** How long a project token works: the console mints a new one when it needs one. */
export const PROJECT_TOKEN_TTL_MS = 5 * MINUTE;
/** Longer strings are no project token: nothing is opened. */
const MAX_TOKEN_LENGTH = 1024;

interface Sealed {
  v: 1;
  /** the operator (a system-project user) */
  u: string;
  /** the project */
  p: string;
  /** expiry, epoch milliseconds */
  e: number;
}

function parse(plain: string): Sealed | undefined {
  try {
    const value = JSON.parse(plain) as Partial<Sealed>;
    if (value.v !== 1 || typeof value.u !== 'string' || typeof value.p !== 'string' || typeof value.e !== 'number') return undefined;
    return value as Sealed;
  } catch {
    return undefined;
  }
}

/** The rule a token is checked against at each use (OperatorService). */
export interface RoleCheck {
  mayAdminister(userId: string, projectId: string): Promise<boolean>;
}

/**
 * Project tokens (`gh_op_…`): what an operator holds to act on one project, sealed (AES-GCM under
 * a GATEHOUSE_SECRET subkey) and stored nowhere. A token names its operator, project and expiry;
 * every use checks the expiry and that the operator still holds a role on the project, so a
 * revoked role ends the token at its next use.
 */
export class ProjectTokens {
  constructor(
    private readonly operators: RoleCheck,
    private readonly box: SealedBox,
    private readonly clock: Clock,
  ) {}

  /** A token for the project; 404 `proj.not_found` unless the operator administers it now. */
  async mint(userId: string, projectId: string): Promise<{ token: string; expires_at: string }> {
    if (!(await this.operators.mayAdminister(userId, projectId))) throw notFoundError('proj.not_found');
    const expires = addMs(this.clock.now(), PROJECT_TOKEN_TTL_MS);
    const sealed: Sealed = { v: 1, u: userId, p: projectId, e: expires.getTime() };
    return { token: `${PROJECT_TOKEN_PREFIX}${this.box.seal(JSON.stringify(sealed))}`, expires_at: expires.toISOString() };
  }

  /** The bearer resolver: the project principal of a live token whose role still holds, else undefined. */
  async resolve(token: string): Promise<Principal | undefined> {
    if (!token.startsWith(PROJECT_TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) return undefined;
    const plain = this.box.open(token.slice(PROJECT_TOKEN_PREFIX.length));
    const sealed = plain === undefined ? undefined : parse(plain);
    if (!sealed || sealed.e <= this.clock.now().getTime()) return undefined;
    if (!(await this.operators.mayAdminister(sealed.u, sealed.p))) return undefined;
    return { kind: 'project', projectId: sealed.p, scopes: 'all', via: 'operator', operatorId: sealed.u };
  }
}
