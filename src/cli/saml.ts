import { readFileSync } from 'node:fs';
import type { Container } from '../container.js';
import { AppError } from '../core/errors.js';
import { ADMIN } from '../events/types.js';
import type { SamlLink, SamlProviderInput } from '../saml/service.js';

type UsageErrorClass = new (message: string) => Error;

/** The help of `gatehouse saml …` (merged into the CLI's help). */
export const SAML_HELP: Record<string, string> = {
  'saml put':
    'Usage: gatehouse saml put --project PROJECT_ID --provider SLUG (--metadata-url URL | --metadata-file PATH) [--name NAME] [--domain DOMAIN ...] [--link none|verified_email]\n\nCreates or replaces a SAML 2.0 identity provider and prints it as JSON, with the values to register at the IdP (sp_entity_id, acs_url, sp_metadata_url). A metadata URL is fetched now and again daily. --domain may be given more than once: addresses of these domains sign in at this IdP (home-realm discovery). See docs/saml.md.',
  'saml list': 'Usage: gatehouse saml list --project PROJECT_ID\n\nPrints the project\'s SAML identity providers as JSON.',
  'saml delete': 'Usage: gatehouse saml delete --project PROJECT_ID --provider SLUG\n\nRemoves the provider (nothing happens when it does not exist).',
};

/** `gatehouse saml put|list|delete`: the provider API of docs/saml.md without HTTP. */
export async function samlCommand(
  c: Container,
  command: string,
  values: { project?: string; provider?: string; name?: string; link?: string; 'metadata-url'?: string; 'metadata-file'?: string; domain?: string[] },
  UsageError: UsageErrorClass,
): Promise<unknown> {
  const projectId = values.project!;
  if (command === 'saml list') return (await c.samlProviders.list(projectId, { limit: 100 })).items;
  if (!values.provider) throw new UsageError(`${command} needs --provider`);
  if (command === 'saml delete') {
    await c.samlProviders.delete(projectId, values.provider, ADMIN);
    return { deleted: values.provider };
  }
  if (!/^[a-z][a-z0-9-]{0,63}$/.test(values.provider)) throw new UsageError('--provider must be a slug: a lowercase letter, then up to 63 lowercase letters, digits or dashes');
  if ((values['metadata-url'] === undefined) === (values['metadata-file'] === undefined)) throw new UsageError('saml put needs exactly one of --metadata-url and --metadata-file');
  const input: SamlProviderInput = { name: values.name ?? values.provider };
  if (values['metadata-url'] !== undefined) input.idp_metadata_url = values['metadata-url'];
  else input.idp_metadata_xml = readFileSync(values['metadata-file']!, 'utf8');
  if (values.domain !== undefined) input.domains = values.domain;
  if (values.link !== undefined) {
    if (values.link !== 'none' && values.link !== 'verified_email') throw new UsageError('--link must be none or verified_email');
    input.link = values.link as SamlLink;
  }
  try {
    return (await c.samlProviders.put(projectId, values.provider, input, { actor: ADMIN })).provider;
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(error.message);
    throw error;
  }
}
