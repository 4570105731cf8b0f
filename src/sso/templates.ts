/**
 * The provider templates of DESIGN §4.14: what each presets, and the rules an operator's
 * configuration must meet. `github` is OAuth 2.0 with its user API (no discovery, no ID token).
 */
export const TEMPLATES = ['oidc', 'google', 'microsoft', 'apple', 'gitlab', 'github'] as const;
export type Template = (typeof TEMPLATES)[number];

export const LINK_POLICIES = ['none', 'verified_email'] as const;
export type LinkPolicy = (typeof LINK_POLICIES)[number];

interface TemplateDefaults {
  /** Preset issuer; undefined: the operator names it. */
  issuer?: string;
  scopes: string[];
  /** How the operator's issuer must look, when the template fixes its shape. */
  issuerShape?: { pattern: RegExp; example: string };
}

export const TEMPLATE_DEFAULTS: Record<Template, TemplateDefaults> = {
  oidc: { scopes: ['openid', 'email', 'profile'] },
  google: { issuer: 'https://accounts.google.com', scopes: ['openid', 'email', 'profile'] },
  // A tenant's own issuer: the multi-tenant endpoints issue tokens whose `iss` names the user's tenant.
  microsoft: {
    scopes: ['openid', 'email', 'profile'],
    issuerShape: { pattern: /^https:\/\/login\.microsoftonline\.com\/[A-Za-z0-9.-]{1,100}\/v2\.0$/, example: 'https://login.microsoftonline.com/<tenant-id>/v2.0' },
  },
  apple: { issuer: 'https://appleid.apple.com', scopes: ['openid', 'email', 'name'] },
  // gitlab.com unless a self-managed instance is named.
  gitlab: { issuer: 'https://gitlab.com', scopes: ['openid', 'email', 'profile'] },
  // github.com (no issuer stored) unless a GitHub Enterprise Server's base URL is named.
  github: { scopes: ['read:user', 'user:email'] },
};

export interface GithubEndpoints {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userEndpoint: string;
  emailsEndpoint: string;
}

const GITHUB_COM = 'https://github.com';

/** The issuer a github provider stores: none for github.com (its default), else a GitHub Enterprise Server's base URL. */
export function githubEnterpriseBase(issuer: string | undefined): string | null {
  return issuer === undefined || issuer.replace(/\/+$/, '').toLowerCase() === GITHUB_COM ? null : issuer;
}

/**
 * GitHub's OAuth 2.0 endpoints and user API (it publishes no OpenID configuration): github.com's,
 * or those of a GitHub Enterprise Server whose base URL the provider names as its issuer (its API
 * lives under `/api/v3` there).
 */
export function githubEndpoints(enterpriseBase: string | null): GithubEndpoints {
  if (enterpriseBase === null) {
    return {
      issuer: GITHUB_COM,
      authorizationEndpoint: `${GITHUB_COM}/login/oauth/authorize`,
      tokenEndpoint: `${GITHUB_COM}/login/oauth/access_token`,
      userEndpoint: 'https://api.github.com/user',
      emailsEndpoint: 'https://api.github.com/user/emails',
    };
  }
  const base = enterpriseBase.replace(/\/+$/, '');
  return {
    issuer: base,
    authorizationEndpoint: `${base}/login/oauth/authorize`,
    tokenEndpoint: `${base}/login/oauth/access_token`,
    userEndpoint: `${base}/api/v3/user`,
    emailsEndpoint: `${base}/api/v3/user/emails`,
  };
}

/** Schema property path -> upstream claim, when the operator maps nothing. */
export const DEFAULT_CLAIMS: Record<string, string> = { email: 'email', 'name.given': 'given_name', 'name.family': 'family_name' };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why an issuer is refused, or undefined when it is fine: an absolute https URL (http only on a
 * loopback host, for development and tests), without credentials, query or fragment.
 */
export function issuerProblem(issuer: string, template: Template): string | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return 'must be https (http only on a loopback host)';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.search !== '' || url.hash !== '' || issuer.includes('#') || issuer.includes('?')) return 'must not carry a query or fragment';
  const shape = TEMPLATE_DEFAULTS[template].issuerShape;
  if (shape && !shape.pattern.test(issuer)) return `must look like ${shape.example}`;
  return undefined;
}
