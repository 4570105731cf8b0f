import type { CacheProvider, SAML } from '@node-saml/node-saml';
import type { OpenedSamlProvider } from '../../../saml/service.js';
import { parseXml, refuseDeclarations, XmlRefused } from '../../../saml/xml.js';

/** How far the IdP's clock may be off ours (DESIGN §4.20). */
export const CLOCK_SKEW_MS = 60_000;
/** Without a NotOnOrAfter (never from a sane IdP), an assertion id is still kept this long. */
const ASSERTION_ID_TTL_MS = 24 * 3_600_000;
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A response refused, with why (logged, never shown). */
export class SamlRefusal extends Error {}

/** What a verified assertion says, read from the signed XML only. */
export interface VerifiedAssertion {
  nameId: string;
  nameIdFormat?: string;
  attributes: Record<string, unknown>;
  assertionId: string;
  /** when the assertion id may be forgotten (the assertion expired) */
  forgetAfter: Date;
}

type Node = { $?: Record<string, string>; _?: string; [child: string]: unknown };
const first = (node: Node | undefined, name: string): Node | undefined => (node?.[name] as Node[] | undefined)?.[0];
const all = (node: Node | undefined, name: string): Node[] => (node?.[name] as Node[] | undefined) ?? [];

/** node-saml's InResponseTo cache, holding exactly the one request this flow sent. */
const onlyRequest = (requestId: string): CacheProvider => ({
  saveAsync: async () => null,
  // node-saml compares the request's age with the real clock; the flow's own expiry (the injected clock) decides.
  getAsync: async (key) => (key === requestId ? new Date().toISOString() : null),
  removeAsync: async () => null,
});

/**
 * node-saml configured for one provider and one request (SP-initiated only). node-saml and its XML
 * stack (xml-crypto, xmldom, xml2js, xml-encryption) are imported on the first SAML sign-in: they
 * are 3-4 MB of heap that an instance without SAML providers would otherwise hold for its life.
 */
export async function samlClient(provider: OpenedSamlProvider, requestId: string): Promise<SAML> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  return new SAML({
    entryPoint: provider.idp.ssoUrl,
    issuer: provider.spEntityId,
    callbackUrl: provider.acsUrl,
    audience: provider.spEntityId,
    idpIssuer: provider.idp.entityId,
    // the metadata's certificates only: never a key the document brings along
    idpCert: provider.idp.certificates,
    decryptionPvk: provider.spPrivateKey,
    // The Response or every Assertion signed: node-saml then demands the assertion's own signature when the Response has none.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    cacheProvider: onlyRequest(requestId),
    generateUniqueId: () => requestId,
    // the time checks are ours, on the injected clock (below)
    acceptedClockSkewMs: -1,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
}

/** Checks `NotBefore`/`NotOnOrAfter` with the skew; answers the end it names. */
function window(attrs: Record<string, string> | undefined, now: number, what: string): number | undefined {
  const notBefore = attrs?.NotBefore !== undefined ? Date.parse(attrs.NotBefore) : undefined;
  const notOnOrAfter = attrs?.NotOnOrAfter !== undefined ? Date.parse(attrs.NotOnOrAfter) : undefined;
  if (Number.isNaN(notBefore) || Number.isNaN(notOnOrAfter)) throw new SamlRefusal(`${what}: a time is not a date`);
  if (notBefore !== undefined && now + CLOCK_SKEW_MS < notBefore) throw new SamlRefusal(`${what}: not yet valid`);
  if (notOnOrAfter !== undefined && now - CLOCK_SKEW_MS >= notOnOrAfter) throw new SamlRefusal(`${what}: expired`);
  return notOnOrAfter;
}

/**
 * Verifies a SAML response (base64, HTTP-POST binding) for the request `requestId` of this flow:
 * a DTD or entity declaration is refused before any parser sees the document; the Response or its
 * one Assertion must be signed by a certificate of the IdP's metadata (node-saml with xml-crypto,
 * which also refuses several assertions: signature wrapping); then, from the signed assertion only:
 * issuer, audience, a bearer confirmation whose Recipient is our ACS and whose InResponseTo is the
 * request (an IdP-initiated response has none), and the time windows with 60 s skew. The
 * Response's Destination must be our ACS.
 */
export async function verifyResponse(provider: OpenedSamlProvider, samlResponse: string, requestId: string, now: Date): Promise<VerifiedAssertion> {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  let destination: string | undefined;
  try {
    refuseDeclarations(xml);
    const root = parseXml(xml);
    if (root.local !== 'Response') throw new SamlRefusal('the document is not a SAML Response');
    destination = root.attrs.Destination;
  } catch (error) {
    if (error instanceof XmlRefused) throw new SamlRefusal(`the response is refused before parsing: ${error.message}`);
    throw error;
  }
  if (destination !== provider.acsUrl) throw new SamlRefusal('the Destination is not this ACS');
  let profile;
  try {
    ({ profile } = await (await samlClient(provider, requestId)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SamlRefusal(`node-saml: ${(error as Error).message}`.slice(0, 300));
  }
  if (!profile) throw new SamlRefusal('the response holds no assertion');
  const assertion = (profile.getAssertion?.() as { Assertion?: Node } | undefined)?.Assertion;
  if (!assertion?.$?.ID) throw new SamlRefusal('the signed assertion has no ID');
  if (first(assertion, 'Issuer')?._ !== provider.idp.entityId) throw new SamlRefusal('the assertion\'s issuer is not the IdP of the metadata');
  const nowMs = now.getTime();
  const confirmations = all(first(assertion, 'Subject'), 'SubjectConfirmation').filter((confirmation) => confirmation.$?.Method === BEARER);
  const data = confirmations.map((confirmation) => first(confirmation, 'SubjectConfirmationData')?.$ ?? {});
  const ours = data.filter((attrs) => attrs.Recipient === provider.acsUrl);
  if (ours.length === 0) throw new SamlRefusal('no bearer confirmation names this ACS as its Recipient');
  const answered = ours.filter((attrs) => attrs.InResponseTo === requestId);
  if (answered.length === 0) throw new SamlRefusal('the assertion does not answer this flow\'s request (InResponseTo; IdP-initiated responses are refused)');
  const confirmationEnd = window(answered[0], nowMs, 'the subject confirmation');
  if (confirmationEnd === undefined) throw new SamlRefusal('the subject confirmation has no NotOnOrAfter');
  const conditionsEnd = window(first(assertion, 'Conditions')?.$, nowMs, 'the conditions');
  const nameId = profile.nameID;
  if (typeof nameId !== 'string' || nameId.length === 0 || nameId.length > 512) throw new SamlRefusal('the assertion has no usable NameID');
  const ends = [confirmationEnd, conditionsEnd].filter((end): end is number => end !== undefined);
  return {
    nameId,
    ...(profile.nameIDFormat ? { nameIdFormat: profile.nameIDFormat } : {}),
    attributes: (profile.attributes as Record<string, unknown> | undefined) ?? {},
    assertionId: assertion.$.ID,
    forgetAfter: new Date((ends.length > 0 ? Math.max(...ends) : nowMs + ASSERTION_ID_TTL_MS) + CLOCK_SKEW_MS),
  };
}
