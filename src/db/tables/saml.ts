/** SAML 2.0 providers, their home-realm domains, links and used assertion ids (migration 0104). */
export interface SamlTables {
  saml_providers: {
    project_id: string;
    id: string;
    name: string;
    idp_metadata_xml: string | null;
    idp_metadata_url: string | null;
    metadata_cached: string | null;
    metadata_fetched_at: Date | null;
    attributes: Record<string, string>;
    link: 'none' | 'verified_email';
    enabled: boolean;
    sp_key_sealed: string;
    sp_certificate: string;
    created_at: Date;
    updated_at: Date;
  };
  saml_domains: {
    project_id: string;
    domain: string;
    provider_id: string;
  };
  saml_links: {
    credential_row_id: string;
    project_id: string;
    user_id: string;
    provider_id: string;
    name_id: string;
  };
  saml_used_assertions: {
    project_id: string;
    provider_id: string;
    assertion_id: string;
    expires_at: Date;
  };
}
