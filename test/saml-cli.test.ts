import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newKeyAndCertificate, certificateBody } from '../src/saml/cert.js';
import { testEngineKind } from './helpers/engine.js';
import { cliEnv, runCli, tempDir } from './helpers/process.js';

// The CLI runs on its own embedded database here whatever the pass's engine, so the PostgreSQL
// pass of .ci/run would repeat the PGlite pass word for word; the commands' services run on both.
describe.skipIf(testEngineKind() === 'postgres')('gatehouse saml put / list / delete', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const env = cliEnv({ GATEHOUSE_DATA_DIR: dir.path, LOG_LEVEL: 'silent', DATABASE_URL: undefined });

  it('adds a provider from a metadata file with its domains, lists it, removes it', async () => {
    const project = await runCli(['project', 'create', '--name', 'CLI SAML'], env);
    expect(project.code, project.stderr).toBe(0);
    const projectId = JSON.parse(project.stdout).id;
    const { certificate } = newKeyAndCertificate('cli idp', new Date());
    const file = join(dir.path, 'idp.xml');
    writeFileSync(
      file,
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.corp.example"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificateBody(certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.corp.example/sso"/></md:IDPSSODescriptor></md:EntityDescriptor>`,
    );
    const put = await runCli(['saml', 'put', '--project', projectId, '--provider', 'corp', '--metadata-file', file, '--name', 'Corp', '--domain', 'corp.example', '--domain', 'corp.example.org', '--link', 'verified_email'], env);
    expect(put.code, put.stderr).toBe(0);
    expect(JSON.parse(put.stdout)).toMatchObject({ id: 'corp', name: 'Corp', idp_entity_id: 'https://idp.corp.example', domains: ['corp.example', 'corp.example.org'], link: 'verified_email', acs_url: expect.stringMatching(/\/flow\/saml\/acs$/) });
    const list = await runCli(['saml', 'list', '--project', projectId], env);
    expect(JSON.parse(list.stdout).map((p: { id: string }) => p.id)).toEqual(['corp']);
    const both = await runCli(['saml', 'put', '--project', projectId, '--provider', 'bad', '--metadata-file', file, '--metadata-url', 'https://idp.example/m'], env);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('exactly one of --metadata-url and --metadata-file');
    const insecure = await runCli(['saml', 'put', '--project', projectId, '--provider', 'bad', '--metadata-url', 'http://idp.example/m'], env);
    expect(insecure.code).toBe(1);
    expect(insecure.stderr).toMatch(/^gatehouse: .*must be https/);
    const removed = await runCli(['saml', 'delete', '--project', projectId, '--provider', 'corp'], env);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse((await runCli(['saml', 'list', '--project', projectId], env)).stdout)).toEqual([]);
  }, 300_000);
});
