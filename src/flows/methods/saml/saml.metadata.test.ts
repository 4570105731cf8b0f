import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../../../../test/helpers/app.js';
import { newKeyAndCertificate } from '../../../saml/cert.js';
import { PROVIDER, samlKit, type SamlKit } from './saml-test-kit.js';

/** The providers API, the SP metadata, and IdP metadata by URL: cached, refreshed daily, certificates rolling over. */
describe('SAML providers and metadata', () => {
  let kit: SamlKit;
  beforeAll(async () => {
    kit = await samlKit();
    await kit.setProvider({ link: 'verified_email' });
  });
  afterAll(async () => kit.close());
  const base = () => `/projects/${kit.project.id}/saml_providers`;

  it('creates, reads, lists and deletes providers; shows what to register at the IdP', async () => {
    const created = await kit.api('PUT', `${base()}/inline`, { name: 'Inline', idp_metadata_xml: kit.idp.metadata(), attributes: { 'name.given': 'first' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      id: 'inline',
      idp_entity_id: `${kit.idp.base}/idp`,
      idp_sso_url: `${kit.idp.base}/sso`,
      idp_certificates: 1,
      domains: [],
      attributes: { 'name.given': 'first' },
      link: 'none',
      enabled: true,
      sp_entity_id: `${kit.origin}/saml/${kit.project.id}/inline`,
      acs_url: `${kit.origin}/flow/saml/acs`,
      sp_metadata_url: `${kit.origin}/saml/inline/metadata?project_id=${kit.project.id}`,
    });
    expect((await kit.api('PUT', `${base()}/inline`, { name: 'Inline 2', idp_metadata_xml: kit.idp.metadata() })).statusCode).toBe(200);
    const createOnly = await kit.t.app.inject({ method: 'PUT', url: `${base()}/inline`, headers: { authorization: `Bearer ${kit.project.project_secret}`, 'if-none-match': '*' }, payload: { name: 'x', idp_metadata_xml: kit.idp.metadata() } });
    expect(createOnly.statusCode).toBe(412);
    const list = await kit.api('GET', base());
    expect(list.json().saml_providers.map((p: { id: string }) => p.id)).toEqual([PROVIDER, 'inline']);
    expect((await kit.api('DELETE', `${base()}/inline`)).statusCode).toBe(204);
    expect((await kit.api('DELETE', `${base()}/inline`)).statusCode).toBe(204);
    const gone = await kit.api('GET', `${base()}/inline`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('saml.not_found');
  });

  it('refuses metadata it cannot use, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ idp_metadata_xml: kit.idp.metadata(), idp_metadata_url: `${kit.idp.base}/metadata` }, 'exactly one'],
      [{}, 'exactly one'],
      [{ idp_metadata_xml: '<not-xml' }, 'idp_metadata_xml'],
      [{ idp_metadata_xml: `<!DOCTYPE x [<!ENTITY a "b">]>${kit.idp.metadata()}` }, 'DTD'],
      [{ idp_metadata_xml: kit.idp.metadata().replace(/<ds:X509Certificate>[^<]+</g, '<ds:X509Certificate>bm90IGEgY2VydA==<') }, 'certificate'],
      [{ idp_metadata_url: 'http://idp.example/metadata' }, 'must be https'],
      [{ idp_metadata_url: `${kit.idp.base}/nothing-here` }, 'could not be fetched: answered HTTP 404'],
      // Never fetched from inside the network: private and link-local (cloud metadata) addresses.
      [{ idp_metadata_url: 'https://10.0.0.7/metadata' }, 'could not be fetched: 10.0.0.7 is not a public address'],
      [{ idp_metadata_url: 'https://169.254.169.254/latest/meta-data' }, 'could not be fetched: 169.254.169.254 is not a public address'],
      [{ idp_metadata_url: 'https://[::ffff:192.168.1.1]/metadata' }, 'is not a public address'],
      [{ idp_metadata_xml: kit.idp.metadata(), domains: ['not a domain'] }, 'domains'],
    ];
    for (const [body, message] of cases) {
      const refused = await kit.api('PUT', `${base()}/bad`, { name: 'Bad', ...body });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.body).toContain(message);
    }
  });

  it('serves the SP metadata without credentials: entity id, ACS (HTTP-POST), encryption certificate', async () => {
    const metadata = await kit.t.app.inject({ method: 'GET', url: `/saml/${PROVIDER}/metadata?project_id=${kit.project.id}` });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(metadata.body).toContain(`entityID="${kit.origin}/saml/${kit.project.id}/${PROVIDER}"`);
    expect(metadata.body).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${kit.origin}/flow/saml/acs"`);
    expect(metadata.body).toMatch(/<md:KeyDescriptor use="encryption">[\s\S]*<ds:X509Certificate>[A-Za-z0-9+/=]{200,}<\/ds:X509Certificate>/);
    expect((await kit.t.app.inject({ method: 'GET', url: `/saml/nobody/metadata?project_id=${kit.project.id}` })).statusCode).toBe(404);
  });

  it('keeps fetched metadata for a day, then fetches it again: a rolled-over signing certificate takes over', async () => {
    const sign = async () => (await kit.journey(kit.browser(), { nameId: `p-roll-${Math.random()}`, attributes: { email: `roll${Math.random().toString(16).slice(2)}@corp.example` } })).after!.body;
    expect((await sign()).step.name).toBe('done');
    const next = newKeyAndCertificate('idp next', new Date());
    kit.idp.rebuild(next);
    // The IdP signs with its new key; the cached metadata still names the old one.
    expect((await sign()).step.error).toBe('error.sso_failed');
    kit.t.clock.advance(24 * 3_600_000 + 1000);
    expect((await sign()).step.name, kit.refusals().slice(-1).join()).toBe('done');
    const shown = (await kit.api('GET', `${base()}/${PROVIDER}`)).json();
    expect(shown.metadata_fetched_at).toBe(kit.t.clock.now().toISOString());
    kit.idp.rebuild();
  });

  it('fetches a loopback metadata URL only on a development machine or with the operator opt-in, never in production', async () => {
    let connections = 0;
    const local = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(kit.idp.metadata()));
    local.on('connection', () => connections++);
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}/metadata`;
    // One app per configuration (each is a fresh database): the puts of one configuration share it.
    const putsWith = async (config: Parameters<typeof createTestApp>[0], metadataUrls: string[]) => {
      const t = await createTestApp(config);
      try {
        const answers = [];
        for (const [index, metadataUrl] of metadataUrls.entries()) {
          const project = await t.createProject();
          const payload = { name: `Corp ${index}`, idp_metadata_url: metadataUrl };
          answers.push(await t.app.inject({ method: 'PUT', url: `/projects/${project.id}/saml_providers/corp`, headers: bearer(project.project_secret), payload }));
        }
        return answers;
      } finally {
        await t.close();
      }
    };
    try {
      // Production (the public URL is not loopback): refused before any connection.
      const privateUrls = [url, url.replace('127.0.0.1', 'localhost'), 'https://10.0.0.1/metadata', 'https://169.254.169.254/latest', 'https://[::ffff:192.168.1.1]/metadata'];
      const refusals = await putsWith({ publicUrl: 'https://id.example.com' }, privateUrls);
      for (const [index, refused] of refusals.entries()) {
        expect(refused.statusCode, privateUrls[index]).toBe(400);
        expect(refused.body, privateUrls[index]).toContain('not a public address');
      }
      expect(connections).toBe(0);
      // The operator's opt-in (either variable's name: src/config.test.ts) reaches it; so does a loopback public URL (the kit's own apps).
      const [optedIn] = await putsWith({ publicUrl: 'https://id.example.com', outboundAllowPrivate: true }, [url]);
      expect(optedIn.statusCode).toBe(201);
      const [loopback, privateNetwork] = await putsWith({ publicUrl: 'http://localhost:8080' }, [url, 'https://10.0.0.1/metadata']);
      expect(loopback.statusCode).toBe(201);
      expect(connections).toBe(2);
      // On a development machine only loopback is the exception, not the private network.
      expect(privateNetwork.body).toContain('10.0.0.1 is not a public address');
    } finally {
      local.closeAllConnections();
      local.close();
    }
  }, 60_000);

  it('gives up on a metadata URL that does not answer within the timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/metadata`;
      const refused = await kit.api('PUT', `${base()}/slow`, { name: 'Slow', idp_metadata_url: url });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('could not be fetched');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 20_000);
});
