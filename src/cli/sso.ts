import type { Container } from '../container.js';
import { AppError } from '../core/errors.js';
import { ADMIN } from '../events/types.js';
import type { SsoProviderInput } from '../sso/service.js';
import { LINK_POLICIES, TEMPLATES, type LinkPolicy, type Template } from '../sso/templates.js';

type UsageErrorClass = new (message: string) => Error;

/** `gatehouse sso put|list|delete`: the provider API of docs/sso.md without HTTP. */
export async function ssoCommand(
  c: Container,
  command: 'sso put' | 'sso list' | 'sso delete',
  values: { project?: string; provider?: string; template?: string; issuer?: string; 'client-id'?: string; name?: string; link?: string },
  UsageError: UsageErrorClass,
): Promise<unknown> {
  const projectId = values.project!;
  if (command === 'sso list') return (await c.ssoProviders.list(projectId, { limit: 100 })).items;
  if (!values.provider) throw new UsageError(`${command} needs --provider`);
  if (command === 'sso delete') {
    await c.ssoProviders.delete(projectId, values.provider, ADMIN);
    return { deleted: values.provider };
  }
  if (!values.template || !(TEMPLATES as readonly string[]).includes(values.template)) throw new UsageError(`sso put needs --template (${TEMPLATES.join(', ')})`);
  if (!values['client-id']) throw new UsageError('sso put needs --client-id');
  if (!/^[a-z][a-z0-9-]{0,63}$/.test(values.provider)) throw new UsageError('--provider must be a slug: a lowercase letter, then up to 63 lowercase letters, digits or dashes');
  const input: SsoProviderInput = { name: values.name ?? values.provider, template: values.template as Template, client_id: values['client-id'] };
  if (values.issuer !== undefined) input.issuer = values.issuer;
  if (values.link !== undefined) {
    if (!(LINK_POLICIES as readonly string[]).includes(values.link)) throw new UsageError(`--link must be ${LINK_POLICIES.join(' or ')}`);
    input.link = values.link as LinkPolicy;
  }
  const secret = process.env.SSO_CLIENT_SECRET;
  if (secret) input.client_secret = secret;
  try {
    return (await c.ssoProviders.put(projectId, values.provider, input, { actor: ADMIN })).provider;
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(`${error.message}`);
    throw error;
  }
}
