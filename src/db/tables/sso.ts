/** The provider templates of `sso/templates.ts` (`TEMPLATES` must list exactly these). */
export type SsoTemplate = 'oidc' | 'google' | 'microsoft' | 'apple' | 'gitlab' | 'github';
/** The link policies of `sso/templates.ts` (`LINK_POLICIES` must list exactly these). */
export type SsoLinkPolicy = 'none' | 'verified_email';

export interface SsoTables {
  sso_providers: {
    project_id: string;
    id: string;
    name: string;
    template: SsoTemplate;
    issuer: string | null;
    client_id: string;
    client_secret_sealed: string | null;
    scopes: string[];
    claims: Record<string, string>;
    link: SsoLinkPolicy;
    enabled: boolean;
    created_at: Date;
    updated_at: Date;
  };
}

export interface SsoLinkTables {
  sso_links: {
    credential_row_id: string;
    project_id: string;
    user_id: string;
    provider_id: string;
    subject: string;
  };
  sso_used_states: {
    state_hash: string;
    project_id: string;
    expires_at: Date;
  };
}
