import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { IdGenerator } from '../core/ids.js';
import type { Database } from '../db/schema.js';
import { valueAt } from '../schemas/document.js';
import { notFoundError } from '../http/principal.js';
import type { StoredSchema } from '../schemas/service.js';
import type { User, UserInput, UserService } from '../users/service.js';
import type { PasswordHasher } from './hasher.js';
import { checkPasswordPolicy, normalisePassword, policyError } from './policy.js';
import type { PasswordStore } from './store.js';

/** Longer input is refused by `verify` without hashing, so nobody can make the server hash megabytes. */
const MAX_VERIFY_LENGTH = 4096;

export class PasswordService {
  private dummyHash?: Promise<string>;

  constructor(
    private readonly store: PasswordStore,
    private readonly users: UserService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * Sets (or replaces) a user's password after the policy check: 404 `user.not_found` for a user of
   * another project, 400 `auth.password_policy` naming the rule. Stores an argon2id hash of the
   * NFKC form and audits the change (never the value). With `trx`, everything runs on it.
   */
  async setPassword(projectId: string, userId: string, password: string, options: { actor?: string; trx?: Kysely<Database> } = {}): Promise<void> {
    const user = await this.users.find(projectId, userId, options.trx);
    if (!user) throw notFoundError('user.not_found');
    const secret = await this.hashFor(await this.users.schemaOf(user, options.trx), user.attributes, password);
    const write = (trx: Kysely<Database>) => this.writeHash(trx, user, secret, options.actor);
    await (options.trx ? write(options.trx) : this.store.transaction(write));
  }

  /**
   * Registration: checks the attributes (400 `user.invalid`) and then the password policy (400
   * `auth.password_policy`) before anything is written, then creates the user and its password in
   * one transaction (409 `user.already_exists` leaves neither behind).
   */
  async createUserWithPassword(projectId: string, input: UserInput, password: string, options: { teamId?: string; actor?: string } = {}): Promise<User> {
    const schema = await this.users.checkInput(projectId, input);
    const secret = await this.hashFor(schema, input.attributes, password);
    return this.store.transaction(async (trx) => {
      const user = await this.users.create(projectId, input, { ...options, trx });
      await this.writeHash(trx, user, secret, options.actor);
      return user;
    });
  }

  /** Policy (with the schema's minimum and the user's identifiers), then the argon2id hash. */
  private async hashFor(schema: StoredSchema, attributes: Record<string, unknown>, password: string): Promise<string> {
    if (!schema.model.authMethods.password) {
      throw policyError('method_disabled', 'Passwords are not enabled for users of this schema.', { schema: schema.id });
    }
    const identifiers = schema.model.properties
      .filter((property) => property.unique === 'project' || property.unique === 'team')
      .map((property) => valueAt(attributes, property.path))
      .filter((value): value is string => typeof value === 'string');
    const normalised = await checkPasswordPolicy(password, { minLength: schema.model.passwordMinLength, identifiers });
    return this.hasher.hash(normalised);
  }

  private async writeHash(trx: Kysely<Database>, user: User, secret: string, actor?: string): Promise<void> {
    const now = this.clock.now();
    const existed = await this.store.with(trx).upsert({
      id: this.ids.next('cred'),
      project_id: user.projectId,
      user_id: user.id,
      method: 'password',
      secret,
      created_at: now,
      updated_at: now,
    });
    await this.users.audit(user, 'password', existed ? 'changed' : 'set', actor, trx);
  }

  /**
   * True when `password` is the user's password. Users without a password (or unknown users) cost
   * one hash anyway, so timing does not tell them apart. A hash made with older parameters is
   * replaced on success. Lock-out counting is the caller's job.
   */
  async verify(projectId: string, userId: string, password: string): Promise<boolean> {
    if (password.length > MAX_VERIFY_LENGTH) {
      await this.dummyVerify();
      return false;
    }
    const row = await this.store.find(projectId, userId);
    if (!row) {
      await this.dummyVerify();
      return false;
    }
    const normalised = normalisePassword(password);
    if (!(await this.hasher.verify(row.secret, normalised))) return false;
    if (this.hasher.needsRehash(row.secret)) {
      await this.store.replaceSecret(row.id, row.secret, await this.hasher.hash(normalised), this.clock.now());
    }
    return true;
  }

  /** Whether the user has a password at all (flows offer the password step only then). */
  async hasPassword(projectId: string, userId: string): Promise<boolean> {
    return (await this.store.find(projectId, userId)) !== undefined;
  }

  /** Costs what one real verification costs; call it for unknown identifiers. Always false. */
  async dummyVerify(): Promise<false> {
    // A refused hash (429, hashers busy) must not stay cached as the dummy.
    this.dummyHash ??= this.hasher.hash('gatehouse-dummy-password-for-timing').catch((error: unknown) => {
      this.dummyHash = undefined;
      throw error;
    });
    await this.hasher.verify(await this.dummyHash, 'not-the-dummy-password');
    return false;
  }
}
