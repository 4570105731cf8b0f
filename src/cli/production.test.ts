import { describe, expect, it } from 'vitest';
import { formatChecklist, PRODUCTION_CHECKS, productionModeOf, productionNotices, ProductionRefusal, runProductionChecks } from './production.js';

/** Settings that pass every check. */
const SAFE = {
  GATEHOUSE_PUBLIC_URL: 'https://id.example.com',
  DATABASE_URL: 'postgres://gatehouse:pw@db.internal:5432/gatehouse',
  SMTP_URL: 'smtps://gatehouse:pw@smtp.example.com:465',
  GATEHOUSE_SECRET: 'k'.repeat(43),
  GATEHOUSE_ADMIN_TOKEN: `gh_admin_${'a'.repeat(40)}`,
  GATEHOUSE_TRUSTED_PROXIES: '10.0.0.0/8',
};

const problems = (env: Record<string, string | undefined>) =>
  Object.fromEntries(runProductionChecks(env).filter((r) => r.problem).map((r) => [r.check.variable, r.problem]));

describe('the production checklist', () => {
  it('passes safe settings and names every unsafe default of a bare environment', () => {
    expect(problems(SAFE)).toEqual({});
    expect(Object.keys(problems({}))).toEqual(['GATEHOUSE_PUBLIC_URL', 'DATABASE_URL', 'SMTP_URL', 'GATEHOUSE_SECRET', 'GATEHOUSE_ADMIN_TOKEN']);
  });

  it('wants the public URL on https and not on this machine', () => {
    expect(problems({ ...SAFE, GATEHOUSE_PUBLIC_URL: 'http://id.example.com' }).GATEHOUSE_PUBLIC_URL).toMatch(/^http, not https/);
    expect(problems({ ...SAFE, GATEHOUSE_PUBLIC_URL: 'https://localhost:8443' }).GATEHOUSE_PUBLIC_URL).toMatch(/this machine/);
    expect(problems({ ...SAFE, GATEHOUSE_PUBLIC_URL: 'https://127.0.0.1' }).GATEHOUSE_PUBLIC_URL).toMatch(/this machine/);
  });

  it('refuses a short secret anywhere in a rotation list, a short admin token and a catch-all proxy range', () => {
    expect(problems({ ...SAFE, GATEHOUSE_SECRET: `${'n'.repeat(40)},short-old-secret` }).GATEHOUSE_SECRET).toMatch(/shorter than 32/);
    expect(problems({ ...SAFE, GATEHOUSE_ADMIN_TOKEN: 'too-short' }).GATEHOUSE_ADMIN_TOKEN).toMatch(/shorter than 24/);
    for (const range of ['0.0.0.0/0', '10.0.0.1, ::/0', '*']) {
      expect(problems({ ...SAFE, GATEHOUSE_TRUSTED_PROXIES: range }).GATEHOUSE_TRUSTED_PROXIES, range).toMatch(/trusts every address/);
    }
  });

  it('counts an invalid value of any variable as a problem, in its own words', () => {
    expect(problems({ ...SAFE, PORT: 'abc' })).toEqual({ 'any variable': 'PORT: expected a whole number, got "abc"' });
  });

  it('lists the outbound opt-in as a notice, under either name, without failing a check', () => {
    expect(productionNotices(SAFE)).toEqual([]);
    expect(productionNotices({ ...SAFE, GATEHOUSE_OUTBOUND_ALLOW_PRIVATE: '0' })).toEqual([]);
    const [outbound] = productionNotices({ ...SAFE, GATEHOUSE_OUTBOUND_ALLOW_PRIVATE: '1' });
    expect(outbound).toMatch(/^GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1: every outbound call .* internal network$/);
    expect(productionNotices({ ...SAFE, GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: '1' })).toEqual([expect.stringMatching(/^GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=1: /)]);
    const env = { ...SAFE, GATEHOUSE_OUTBOUND_ALLOW_PRIVATE: '1' };
    expect(runProductionChecks(env).filter((r) => r.problem)).toEqual([]);
    const text = formatChecklist(runProductionChecks(env), productionNotices(env));
    expect(text).toContain(`\n! ${outbound}\n`);
    expect(text).toContain('All 7 checks pass');
  });

  it('is production mode with --production or NODE_ENV=production only', () => {
    expect(productionModeOf({}, true)).toBe('--production');
    expect(productionModeOf({ NODE_ENV: 'production' }, undefined)).toBe('NODE_ENV=production');
    expect(productionModeOf({ NODE_ENV: 'development' }, false)).toBeUndefined();
    expect(productionModeOf({}, undefined)).toBeUndefined();
  });

  it('prints ✔ and ✘ per check, and refuses with every problem in one message', () => {
    const env = { ...SAFE, SMTP_URL: undefined, PORT: '70000' };
    const text = formatChecklist(runProductionChecks(env));
    expect(text.split('\n').filter((line) => /^[✔✘] /.test(line))).toHaveLength(PRODUCTION_CHECKS.length);
    expect(text).toContain('✘ SMTP_URL names the mail server that sends codes and links');
    expect(text).toContain('2 of 7 checks fail');
    const refusal = new ProductionRefusal('--production', runProductionChecks(env).filter((r) => r.problem));
    expect(refusal.message.split('\n').filter((line) => line.startsWith('  ✘ '))).toEqual([
      expect.stringMatching(/^ {2}✘ SMTP_URL: not set/),
      '  ✘ PORT: must be between 0 and 65535, got 70000',
    ]);
  });
});
