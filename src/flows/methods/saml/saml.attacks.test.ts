import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKeyAndCertificate } from '../../../saml/cert.js';
import { decode, encode, signResponse, stripSignatures, wrap, type Wrapping } from './saml-attack-test-kit.js';
import { samlKit, type SamlKit } from './saml-test-kit.js';

/**
 * The attack suite (DESIGN §4.20, issue 35): each payload is signed by the test IdP's real key (or
 * another), then altered. Each test asserts the refusal's logged reason, so that removing the check
 * that gives it makes the test fail; and the victim's account is never signed in.
 */
describe('SAML attack suite: signatures, wrapping, comments, DTDs', () => {
  let kit: SamlKit;
  let victim: string;
  const attacker = { nameId: 'p-attacker', attributes: { email: 'attacker@corp.example' } };
  const evil = { nameId: 'p-admin', email: 'admin@corp.example' };

  beforeAll(async () => {
    kit = await samlKit();
    await kit.setProvider({ link: 'verified_email' });
    const first = await kit.journey(kit.browser(), { nameId: 'p-admin', attributes: { email: 'admin@corp.example' } });
    victim = (await kit.exchange(first.after!.body.handoff_token!)).user_id;
  });
  afterAll(async () => kit.close());

  /** Starts a flow in a fresh browser, lets `craft` alter the IdP's answer, posts it: where the flow went and why. */
  const attempt = async (craft: (signed: string) => string | Promise<string>, user = attacker) => {
    const browser = kit.browser();
    const { authnUrl } = await kit.start(browser);
    const before = kit.refusals().length;
    const landed = await kit.land(browser, await craft(await kit.respond(authnUrl, user)));
    const reason = kit.refusals().slice(before).join(' / ');
    return { ...landed, reason };
  };
  const expectRefused = (result: Awaited<ReturnType<typeof attempt>>, reason: RegExp) => {
    expect(result.after?.body.step.error, result.reason).toBe('error.sso_failed');
    expect(result.after?.body.handoff_token).toBeUndefined();
    expect(result.reason).toMatch(reason);
  };

  it('control: the untouched response signs the attacker in as themself, never as the victim', async () => {
    const result = await attempt((signed) => signed);
    expect(result.after!.body.step.name, result.reason).toBe('done');
    expect((await kit.exchange(result.after!.body.handoff_token!)).user_id).not.toBe(victim);
  });

  it('refuses an unsigned assertion', async () => {
    expectRefused(await attempt((signed) => stripSignatures(signed)), /node-saml: Invalid signature/);
  });

  it('refuses an assertion signed by another key than the metadata\'s', async () => {
    const other = newKeyAndCertificate('not the idp', new Date());
    kit.idp.rebuild(other);
    try {
      expectRefused(await attempt((signed) => signed), /node-saml: Invalid signature/);
    } finally {
      kit.idp.rebuild();
    }
  });

  it('refuses a Response signed by another key, with the key in its KeyInfo', async () => {
    const other = newKeyAndCertificate('not the idp', new Date());
    expectRefused(await attempt((signed) => encode(signResponse(decode(stripSignatures(signed)), other))), /node-saml: Invalid signature/);
  });

  it('control: a Response signed (instead of its Assertion) by the metadata\'s key is accepted', async () => {
    const result = await attempt((signed) => encode(signResponse(decode(stripSignatures(signed)), kit.idp.keys)));
    expect(result.after!.body.step.name, result.reason).toBe('done');
  });

  // What refuses each (xml-crypto through node-saml): a signature must reference its own parent; one assertion only; an unsigned top-level assertion.
  const notItsParent = /node-saml: Invalid signature: Referenced node does not refer to it's parent element/;
  const wrappings: Array<[Wrapping, 'response' | 'assertion', RegExp]> = [
    ['XSW1', 'response', notItsParent],
    ['XSW2', 'response', notItsParent],
    ['XSW3', 'assertion', /node-saml: Invalid signature: multiple assertions/],
    ['XSW4', 'assertion', /node-saml: Invalid signature$/],
    ['XSW5', 'assertion', /node-saml: Invalid signature: multiple assertions/],
    ['XSW6', 'assertion', /node-saml: Invalid signature(, too many transforms|: Referenced node)/],
    ['XSW7', 'assertion', /node-saml: Invalid signature$/],
    ['XSW8', 'assertion', notItsParent],
  ];
  for (const [kind, signed, reason] of wrappings) {
    it(`refuses signature wrapping ${kind} (a signed ${signed} with an evil assertion beside it)`, async () => {
      const result = await attempt((response) => {
        const base = signed === 'response' ? encode(signResponse(decode(stripSignatures(response)), kit.idp.keys)) : response;
        return wrap(kind, base, evil);
      });
      expectRefused(result, reason);
      expect(await kit.t.container.db.selectFrom('saml_used_assertions').select('assertion_id').where('assertion_id', '=', '_evil').execute()).toEqual([]);
    });
  }

  it('reads a NameID with a comment inside as its canonical text: admin@corp.example<!---->.evil.example is not admin@corp.example', async () => {
    const result = await attempt((signed) => signed, { nameId: 'admin@corp.example.evil.example', rawNameId: 'admin@corp.example<!---->.evil.example', attributes: { email: 'someone@evil.example' } } as never);
    expect(result.after!.body.step.name, result.reason).toBe('done');
    const session = await kit.exchange(result.after!.body.handoff_token!);
    expect(session.user_id).not.toBe(victim);
    expect(session.factors[0].payload).toMatchObject({ name_id: 'admin@corp.example.evil.example' });
    const links = await kit.t.container.db.selectFrom('saml_links').select('name_id').where('user_id', '=', victim).execute();
    expect(links).toEqual([{ name_id: 'p-admin' }]);
  });

  it('refuses a DTD / XML bomb before any parser sees it', async () => {
    const bomb = '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>';
    expectRefused(await attempt((signed) => encode(bomb + decode(signed).replace('p-attacker', '&lol2;'))), /refused before parsing: the document holds a DTD/);
    expectRefused(await attempt((signed) => encode(`<?xml version="1.0"?><!DOCTYPE r SYSTEM "http://127.0.0.1:9/x.dtd">${decode(signed)}`)), /refused before parsing: the document holds a DTD/);
  });
});
