import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import { notFoundError } from '../core/errors.js';
import type { IdGenerator } from '../core/ids.js';
import type { Database } from '../db/schema.js';
import type { Actor } from '../events/types.js';
import { valueAt } from '../schemas/document.js';
import type { StoredSchema } from '../schemas/service.js';
import type { User, UserInput, UserService } from '../users/service.js';
import type { PasswordHasher } from './hasher.js';
import { checkPasswordPolicy, normalisePassword, policyError } from './policy.js';
import type { PasswordStore } from './store.js';

/** Longer input is refused by `verify` without hashing, so nobody can make the server hash megabytes. */
const MAX_VERIFY_LENGTH = 4096;

/** What a password set tells other domains: whose password, and the identifiers they sign in with. */
export interface PasswordSetEvent {
  projectId: string;
  userId: string;
  /** The user's `x-unique` (project or team) attribute values as stored; numbers as their JSON text. */
  identifiers: string[];
}

/**
 * Called inside the transaction that writes a new password (operator set, recovery, registration),
 * so that what a reset lifts (the flows' lock-out) is lifted atomically with it, or not at all.
 */
export type PasswordSetHook = (trx: Kysely<Database>, event: PasswordSetEvent) => Promise<void>;

/** The values a user signs in with: the attributes the schema marks `x-unique` project or team. */
export function identifierValues(schema: StoredSchema, attributes: Record<string, unknown>): string[] {
  const values: string[] = [];
  for (const property of schema.model.properties) {
    if (property.unique !== 'project' && property.unique !== 'team') continue;
    const value = valueAt(attributes, property.path);
    if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number' && Number.isFinite(value)) values.push(JSON.stringify(value));
  }
  return values;
}

export class PasswordService {
  private dummyHash?: Promise<string>;
  private readonly setHooks: PasswordSetHook[] = [];

  constructor(
    private readonly store: PasswordStore,
    private readonly users: UserService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  onPasswordSet(hook: PasswordSetHook): void {
    this.setHooks.push(hook);
  }

  /**
   * Sets (or replaces) a user's password after the policy check: 404 `user.not_found` for a user of
   * another project, 400 `auth.password_policy` naming the rule. Stores an argon2id hash of the
   * NFKC form, audits the change (never the value) and runs the password-set hooks, all in one
   * transaction; a refused password changes nothing. With `trx`, everything runs on it.
   */
  async setPassword(projectId: string, userId: string, password: string, options: { actor?: Actor; trx?: Kysely<Database>; within?: (trx: Kysely<Database>) => Promise<void> } = {}): Promise<void> {
    const user = await this.users.find(projectId, userId, options.trx);
    if (!user) throw notFoundError('user.not_found');
    const schema = await this.users.schemaOf(user, options.trx);
    const secret = await this.hashFor(schema, user.attributes, password);
    // `within` is the caller's part of the same transaction (a recovery grant spent); it may refuse.
    const write = async (trx: Kysely<Database>) => {
      await options.within?.(trx);
      await this.writeHash(trx, user, schema, secret, options.actor);
    };
    await (options.trx ? write(options.trx) : this.store.transaction(write));
  }

  /**
   * Registration: checks the attributes (400 `user.invalid`) and then the password policy (400
   * `auth.password_policy`) before anything is written, then creates the user and its password in
   * one transaction (409 `user.already_exists` leaves neither behind).
   */
  async createUserWithPassword(projectId: string, input: UserInput, password: string, options: { teamId?: string; actor?: Actor } = {}): Promise<User> {
    const writePassword = await this.prepareForNewUser(projectId, input, options, password);
    return this.store.transaction(async (trx) => {
      const user = await this.users.create(projectId, input, { ...options, trx });
      await writePassword(trx, user);
      return user;
    });
  }

  /**
   * The password part of creating a user elsewhere (a registration flow): every check that can
   * refuse it (attributes, policy) and the hash happen now; the returned writer stores the hash in
   * the caller's user-creating transaction.
   */
  async prepareForNewUser(projectId: string, input: UserInput, options: { actor?: Actor }, password: string): Promise<(trx: Kysely<Database>, user: User) => Promise<void>> {
    const schema = await this.users.checkInput(projectId, input);
    const secret = await this.hashFor(schema, input.attributes, password);
    return (trx, user) => this.writeHash(trx, user, schema, secret, options.actor);
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

  private async writeHash(trx: Kysely<Database>, user: User, schema: StoredSchema, secret: string, actor?: Actor): Promise<void> {
    const now = this.clock.now();
    const id = this.ids.next('cred');
    const existed = await this.store.with(trx).upsert({
      id,
      project_id: user.projectId,
      user_id: user.id,
      method: 'password',
      secret,
      created_at: now,
      updated_at: now,
    });
    await this.users.audit(trx, user, { attribute: 'password', action: existed ? 'changed' : 'set', actor, credentialId: existed ? null : id });
    const event: PasswordSetEvent = { projectId: user.projectId, userId: user.id, identifiers: identifierValues(schema, user.attributes) };
    for (const hook of this.setHooks) await hook(trx, event);
  }

  /**
   * True when `password` is the user's password. Users without a password (or unknown users) cost
   * one hash anyway, so timing does not tell them apart. A hash made with older parameters is
   * replaced on success. Lock-out counting is the caller's job.
   */
  async verify(projectId: string, userId: string, password: string): Promise<boolean> {
    return (await this.verifyReadingMethods(projectId, userId, password)).ok;
  }

  /**
   * `verify`, also answering which credential methods the user has (read with the password, so a
   * sign-in knows whether a second factor is due without another statement); empty when not ok.
   */
  async verifyReadingMethods(projectId: string, userId: string, password: string): Promise<{ ok: boolean; methods: string[] }> {
    const refused = { ok: false, methods: [] };
    if (password.length > MAX_VERIFY_LENGTH) {
      await this.dummyVerify();
      return refused;
    }
    const row = await this.store.findWithMethods(projectId, userId);
    if (!row) {
      await this.dummyVerify();
      return refused;
    }
    const normalised = normalisePassword(password);
    if (!(await this.hasher.verify(row.secret, normalised))) return refused;
    if (this.hasher.needsRehash(row.secret)) {
      await this.store.replaceSecret(row.id, row.secret, await this.hasher.hash(normalised), this.clock.now());
    }
    return { ok: true, methods: row.methods };
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
