import { checkSettings, ConfigError, OUTBOUND_OPT_IN_VARIABLES } from '../config.js';
import { isLoopbackHost } from '../core/public-url.js';

type Env = Record<string, string | undefined>;

/**
 * One line of the production checklist: what must hold, and what is wrong when it does not.
 * `gatehouse serve` in production mode refuses to start on any problem and `gatehouse doctor`
 * prints the whole list; both read this one declaration, and docs/operations.md lists every
 * `requirement` word for word (test/production.test.ts holds them together).
 */
export interface ProductionCheck {
  /** the variable an operator sets to fix it */
  variable: string;
  /** what holds when the check passes, as the checklist prints it */
  requirement: string;
  /** undefined when the check passes, else why the setting is unsafe */
  problem(env: Env): string | undefined;
}

/** The check whose problems name their own variable (a ConfigError's message). */
const ANY_VARIABLE = 'any variable';
const MIN_SECRET = 32;
const MIN_ADMIN_TOKEN = 24;

/** A list entry that trusts every address: whoever connects may then say which IP they are. */
const CATCH_ALL = /^(\*|.*\/0)$/;

export const PRODUCTION_CHECKS: readonly ProductionCheck[] = [
  {
    variable: 'GATEHOUSE_PUBLIC_URL',
    requirement: 'GATEHOUSE_PUBLIC_URL is the https address clients use',
    problem: (env) => {
      const raw = env.GATEHOUSE_PUBLIC_URL;
      if (!raw) return 'not set: links, the OIDC issuer and passkeys would name http://localhost';
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return 'not a URL';
      }
      if (url.protocol !== 'https:') return `${url.protocol.slice(0, -1)}, not https: sign-in links, tokens and cookies would cross the network unencrypted`;
      if (isLoopbackHost(url.hostname)) return `${url.hostname} is this machine: no client elsewhere can follow its links`;
      return undefined;
    },
  },
  {
    variable: 'DATABASE_URL',
    requirement: 'DATABASE_URL names a PostgreSQL database',
    problem: (env) =>
      env.DATABASE_URL ? undefined : 'not set: the embedded database (PGlite) belongs to one process, cannot be shared by a second node and is backed up only while stopped',
  },
  {
    variable: 'SMTP_URL',
    requirement: 'SMTP_URL names the mail server that sends codes and links',
    problem: (env) =>
      env.SMTP_URL ? undefined : 'not set: sign-in codes, magic links and recovery links are kept in the outbox, never sent, and operators can read them there',
  },
  {
    variable: 'GATEHOUSE_SECRET',
    requirement: `GATEHOUSE_SECRET is set, each secret ${MIN_SECRET}+ characters`,
    problem: (env) => {
      const values = (env.GATEHOUSE_SECRET ?? '').split(',').map((part) => part.trim()).filter(Boolean);
      if (values.length === 0) return 'not set: a secret would be generated into the data directory, different on every node and lost with the directory';
      if (values.some((value) => value.length < MIN_SECRET)) return `a secret shorter than ${MIN_SECRET} characters can be guessed`;
      return undefined;
    },
  },
  {
    variable: 'GATEHOUSE_ADMIN_TOKEN',
    requirement: `GATEHOUSE_ADMIN_TOKEN is set from a secret store (${MIN_ADMIN_TOKEN}+ characters)`,
    problem: (env) => {
      const value = env.GATEHOUSE_ADMIN_TOKEN;
      if (!value) return 'not set: a token that may act on every project would be generated into the data directory and printed in the log';
      if (value.length < MIN_ADMIN_TOKEN) return `shorter than ${MIN_ADMIN_TOKEN} characters`;
      return undefined;
    },
  },
  {
    variable: 'GATEHOUSE_TRUSTED_PROXIES',
    requirement: 'GATEHOUSE_TRUSTED_PROXIES names only your own proxies, no catch-all range',
    problem: (env) => {
      const all = (env.GATEHOUSE_TRUSTED_PROXIES ?? '').split(',').map((part) => part.trim()).find((part) => CATCH_ALL.test(part));
      return all ? `${all} trusts every address: any client could set X-Forwarded-For and escape the per-IP limits on password guessing` : undefined;
    },
  },
  {
    variable: ANY_VARIABLE,
    requirement: 'every setting has a valid value',
    problem: (env) => {
      try {
        checkSettings(env);
        return undefined;
      } catch (error) {
        if (error instanceof ConfigError) return error.message;
        throw error;
      }
    },
  },
];

/**
 * A setting production mode allows but an operator should know is on: it widens what the
 * instance may do, rightly for some deployments. `gatehouse doctor` lists it under the checks
 * without failing, and production mode names it on standard error as it starts.
 */
export interface ProductionNotice {
  /** undefined when the setting is off, else what it allows */
  notice(env: Env): string | undefined;
}

export const PRODUCTION_NOTICES: readonly ProductionNotice[] = [
  {
    notice: (env) => {
      const set = OUTBOUND_OPT_IN_VARIABLES.filter((name) => env[name] === '1');
      if (set.length === 0) return undefined;
      return (
        `${set.map((name) => `${name}=1`).join(' and ')}: every outbound call (webhooks, back-channel logout, SSO and SAML providers, remote schemas) ` +
        'may reach private, loopback and link-local addresses, and webhooks plain http; whoever holds a project secret can make this instance call into your internal network'
      );
    },
  },
];

/** The notices that apply to `env`, each as "VARIABLE: what it allows". */
export function productionNotices(env: Env): string[] {
  return PRODUCTION_NOTICES.flatMap((entry) => entry.notice(env) ?? []);
}

export interface CheckResult {
  check: ProductionCheck;
  problem?: string;
}

export function runProductionChecks(env: Env): CheckResult[] {
  return PRODUCTION_CHECKS.map((check) => ({ check, problem: check.problem(env) }));
}

/** Production mode: `serve --production`, or NODE_ENV=production. */
export function productionModeOf(env: Env, flag: boolean | undefined): string | undefined {
  if (flag) return '--production';
  return env.NODE_ENV === 'production' ? 'NODE_ENV=production' : undefined;
}

/** What `gatehouse doctor` prints: every check with ✔ or ✘, the notices with !, then a summary line. */
export function formatChecklist(results: CheckResult[], notices: string[] = []): string {
  const lines = results.map(({ check, problem }) => (problem ? `✘ ${check.requirement}\n    ${problem}` : `✔ ${check.requirement}`));
  if (notices.length > 0) lines.push('', 'Allowed, and on (know why):', ...notices.map((notice) => `! ${notice}`));
  const failed = results.filter((result) => result.problem).length;
  lines.push('', failed === 0 ? `All ${results.length} checks pass: ready for production.` : `${failed} of ${results.length} checks fail: production mode would refuse to start.`);
  return `Production checklist (docs/operations.md#production-checklist)\n\n${lines.join('\n')}`;
}

/** Refused production start: every unsafe setting in one message. */
export class ProductionRefusal extends Error {
  constructor(mode: string, failed: CheckResult[]) {
    const items = failed.map(({ check, problem }) => `  ✘ ${check.variable === ANY_VARIABLE ? '' : `${check.variable}: `}${problem}`);
    super(
      `production mode (${mode}) refuses to start: ${failed.length} setting${failed.length === 1 ? ' is' : 's are'} unsafe\n${items.join('\n')}\n` +
        'Run "gatehouse doctor" for the whole checklist (docs/operations.md#production-checklist).',
    );
    this.name = 'ProductionRefusal';
  }
}
