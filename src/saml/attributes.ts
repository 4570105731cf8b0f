/**
 * Where a schema property's value is read from in an assertion when the provider's `attributes`
 * name no attribute for it: the first of these that the assertion holds. They cover what Entra ID,
 * Okta and Google Workspace send by default or in their usual set-up (docs/saml.md).
 */
export const DEFAULT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  email: [
    'email',
    'mail',
    'emailaddress',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'urn:oid:0.9.2342.19200300.100.1.3',
    'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/upn',
  ],
  'name.given': ['givenName', 'firstName', 'first_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'],
  'name.family': ['sn', 'surname', 'lastName', 'last_name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'],
  name: ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241'],
};

/** The NameID format whose value is an e-mail address (used for `email` when no attribute gives one). */
export const EMAIL_NAMEID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Property paths as the schema names them (`email`, `name.given`). */
export const PROPERTY_PATH = /^[A-Za-z_][A-Za-z0-9_]{0,63}(\.[A-Za-z_][A-Za-z0-9_]{0,63}){0,4}$/;

/** An e-mail domain as `domains` takes it: lower-case labels, at least two, no trailing dot. */
export const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
