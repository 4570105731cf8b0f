import { certificateBody, certificatePem } from './cert.js';
import { childrenNamed, descendantsNamed, parseXml, XmlRefused, type XmlElement } from './xml.js';

export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';

/** What an IdP's metadata tells the SP: who it is, where AuthnRequests go, and which certificates sign. */
export interface IdpMetadata {
  entityId: string;
  /** the SingleSignOnService of the HTTP-Redirect binding */
  ssoUrl: string;
  /** every signing certificate listed (several during a rollover), as PEM */
  certificates: string[];
}

export class MetadataProblem extends Error {}

/** Parses IdP metadata (an `EntityDescriptor`, or an `EntitiesDescriptor` holding one IdP); throws `MetadataProblem` saying what is missing. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  let root: XmlElement;
  try {
    root = parseXml(xml.trim());
  } catch (error) {
    if (error instanceof XmlRefused) throw new MetadataProblem(`is not XML Gatehouse reads: ${error.message}`);
    throw error;
  }
  const entities = root.local === 'EntityDescriptor' ? [root] : root.local === 'EntitiesDescriptor' ? descendantsNamed(root, 'EntityDescriptor') : [];
  const idps = entities.filter((entity) => childrenNamed(entity, 'IDPSSODescriptor').length > 0);
  if (idps.length === 0) throw new MetadataProblem('holds no EntityDescriptor with an IDPSSODescriptor');
  if (idps.length > 1) throw new MetadataProblem('holds several identity providers; give the metadata of one');
  const entity = idps[0];
  const entityId = entity.attrs.entityID;
  if (!entityId) throw new MetadataProblem('has no entityID');
  const descriptor = childrenNamed(entity, 'IDPSSODescriptor')[0];
  if (!(descriptor.attrs.protocolSupportEnumeration ?? '').split(/\s+/).includes(PROTOCOL)) throw new MetadataProblem('does not support the SAML 2.0 protocol');
  const sso = childrenNamed(descriptor, 'SingleSignOnService').find((service) => service.attrs.Binding === REDIRECT_BINDING);
  if (!sso?.attrs.Location) throw new MetadataProblem('has no SingleSignOnService with the HTTP-Redirect binding');
  let ssoUrl: URL;
  try {
    ssoUrl = new URL(sso.attrs.Location);
  } catch {
    throw new MetadataProblem('has a SingleSignOnService Location that is not a URL');
  }
  if (ssoUrl.protocol !== 'https:' && ssoUrl.protocol !== 'http:') throw new MetadataProblem('has a SingleSignOnService Location that is not http(s)');
  const certificates = childrenNamed(descriptor, 'KeyDescriptor')
    .filter((key) => key.attrs.use === undefined || key.attrs.use === 'signing')
    .flatMap((key) => descendantsNamed(key, 'X509Certificate'))
    .map((node) => certificatePem(node.text));
  if (certificates.some((pem) => pem === undefined)) throw new MetadataProblem('lists a signing certificate that is not an X.509 certificate');
  if (certificates.length === 0) throw new MetadataProblem('lists no signing certificate');
  return { entityId, ssoUrl: ssoUrl.toString(), certificates: [...new Set(certificates as string[])] };
}

const esc = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The SP's metadata for one provider: its entity id, the ACS (HTTP-POST) and its encryption certificate. */
export function spMetadataXml(sp: { entityId: string; acsUrl: string; certificate: string }): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${esc(sp.entityId)}">`,
    `  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="${PROTOCOL}">`,
    '    <md:KeyDescriptor use="encryption">',
    `      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(sp.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>`,
    '      <md:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm"/>',
    '      <md:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>',
    '      <md:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"/>',
    '    </md:KeyDescriptor>',
    '    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>',
    '    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>',
    `    <md:AssertionConsumerService Binding="${POST_BINDING}" Location="${esc(sp.acsUrl)}" index="0" isDefault="true"/>`,
    '  </md:SPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
}
