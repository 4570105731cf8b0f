import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from './saml-attack-test-kit.js';
import { samlKit, type IdpUser, type SamlKit } from './saml-test-kit.js';

/**
 * The checks on a validly signed assertion (DESIGN §4.20): Audience, Recipient, Destination, the
 * time windows with 60 s skew (on the injected clock), the one-time assertion id, InResponseTo bound
 * to this browser's flow, IdP-initiated responses. Each test asserts the logged reason of its check.
 */
describe('SAML response checks', () => {
  let kit: SamlKit;
  beforeAll(async () => {
    kit = await samlKit();
    await kit.setProvider({ link: 'verified_email' });
  });
  afterAll(async () => kit.close());

  let counter = 0;
  const person = (values: Record<string, string> = {}): IdpUser => ({ nameId: `p-check-${++counter}`, attributes: { email: `check${counter}@corp.example` }, values });
  const since = () => kit.refusals().length;
  const refusedWith = async (landed: Awaited<ReturnType<SamlKit['land']>>, from: number, reason: RegExp) => {
    const reasons = kit.refusals().slice(from).join(' / ');
    expect(landed.after?.body.step.error, reasons).toBe('error.sso_failed');
    expect(landed.after?.body.handoff_token).toBeUndefined();
    expect(reasons).toMatch(reason);
  };
  const signedFor = async (values: Record<string, string>) => {
    const browser = kit.browser();
    const { authnUrl } = await kit.start(browser);
    return { browser, response: await kit.respond(authnUrl, person(values)) };
  };

  it('refuses a wrong Audience', async () => {
    const from = since();
    const { browser, response } = await signedFor({ Audience: 'https://other-sp.example/saml' });
    await refusedWith(await kit.land(browser, response), from, /node-saml: SAML assertion audience mismatch/);
  });

  it('refuses a wrong Recipient', async () => {
    const from = since();
    const { browser, response } = await signedFor({ SubjectRecipient: 'https://evil.example/acs' });
    await refusedWith(await kit.land(browser, response), from, /no bearer confirmation names this ACS as its Recipient/);
  });

  it('refuses a wrong Destination', async () => {
    const from = since();
    const { browser, response } = await signedFor({ Destination: 'https://evil.example/acs' });
    await refusedWith(await kit.land(browser, response), from, /the Destination is not this ACS/);
  });

  it('refuses an expired assertion, and accepts one within the 60 s skew', async () => {
    const late = await signedFor({});
    kit.t.clock.advance(5 * 60_000 + 61_000);
    const from = since();
    await refusedWith(await kit.land(late.browser, late.response), from, /the subject confirmation: expired/);
    const skewed = await signedFor({});
    kit.t.clock.advance(5 * 60_000 + 50_000);
    expect((await kit.land(skewed.browser, skewed.response)).after!.body.step.name).toBe('done');
  });

  it('refuses an assertion that is not yet valid (NotBefore beyond the skew), and accepts one within it', async () => {
    const now = kit.t.clock.now().getTime();
    const early = await signedFor({ ConditionsNotBefore: new Date(now + 5 * 60_000).toISOString() });
    const from = since();
    await refusedWith(await kit.land(early.browser, early.response), from, /the conditions: not yet valid/);
    const skewed = await signedFor({ ConditionsNotBefore: new Date(now + 50_000).toISOString() });
    expect((await kit.land(skewed.browser, skewed.response)).after!.body.step.name).toBe('done');
  });

  it('refuses a replayed response: the assertion id is taken once, in the database', async () => {
    const { browser, response } = await signedFor({});
    const host = new URL(kit.origin).host;
    const cookies = { flow: browser.cookie(host, '_zflow'), binding: browser.cookie(host, '_zsaml') };
    expect((await kit.land(browser, response)).after!.body.step.name).toBe('done');
    // The same browser state as before the first post (its old cookies kept), the same response again.
    const replay = kit.browser();
    replay.setCookie(host, '_zflow', cookies.flow);
    replay.setCookie(host, '_zsaml', cookies.binding);
    const from = since();
    await refusedWith(await kit.land(replay, response), from, /the assertion was used before \(replay\)/);
  });

  it('takes an assertion id once under concurrent posts of one response', async () => {
    const { browser, response } = await signedFor({});
    const host = new URL(kit.origin).host;
    const copies = Array.from({ length: 5 }, () => {
      const copy = kit.browser();
      copy.setCookie(host, '_zflow', browser.cookie(host, '_zflow'));
      copy.setCookie(host, '_zsaml', browser.cookie(host, '_zsaml'));
      return copy;
    });
    const landed = await Promise.all(copies.map((copy) => kit.land(copy, response)));
    const done = landed.filter((one) => one.after?.body.step.name === 'done');
    expect(done).toHaveLength(1);
    expect(landed.filter((one) => one.after?.body.step.error === 'error.sso_failed')).toHaveLength(4);
  });

  it('refuses an IdP-initiated response (no InResponseTo), in a flow and without one', async () => {
    const from = since();
    const { browser, response } = await signedFor({ InResponseTo: '' });
    expect(decode(response)).not.toContain('InResponseTo');
    await refusedWith(await kit.land(browser, response), from, /node-saml: InResponseTo is missing from response/);
    const unsolicited = await kit.land(kit.browser(), response);
    expect(unsolicited.acs.status).toBe(400);
    expect((await unsolicited.acs.json()).code).toBe('flow.sso_failed');
  });

  it('refuses an InResponseTo of another browser\'s flow, also when only the unsigned Response names this flow\'s request', async () => {
    const victim = kit.browser();
    const { authnUrl: victimRequest } = await kit.start(victim);
    const forVictim = await kit.respond(victimRequest, person());
    const attacker = kit.browser();
    await kit.start(attacker);
    let from = since();
    await refusedWith(await kit.land(attacker, forVictim), from, /node-saml: InResponseTo is not valid/);
    // The Response's own InResponseTo (outside the signed assertion) rewritten to the attacker's request.
    const { authnUrl: attackerRequest } = await kit.start(attacker);
    const requestIdOf = (response: string) => /InResponseTo="([^"]+)"/.exec(decode(response))![1];
    const attackerId = requestIdOf(await kit.respond(attackerRequest, person()));
    const rewritten = encode(decode(forVictim).replace(`InResponseTo="${requestIdOf(forVictim)}"`, `InResponseTo="${attackerId}"`));
    from = since();
    await refusedWith(await kit.land(attacker, rewritten), from, /node-saml: InResponseTo does not match subjectInResponseTo/);
  });
});
