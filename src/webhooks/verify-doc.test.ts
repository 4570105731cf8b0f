import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../packages/node/src/webhook.js';
import { newWebhookSecret, signedHeaders } from './signature.js';

/** The shell recipes of docs/webhooks-verify.md, run as written (each follows a `tested:` marker). */
const DOC = readFileSync(new URL('../../docs/webhooks-verify.md', import.meta.url), 'utf8');
function recipe(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\\n\`\`\``).exec(DOC);
  if (!match) throw new Error(`docs/webhooks-verify.md has no recipe "${name}"`);
  return match[1];
}

const has = (tool: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const dirs: string[] = [];
const servers: Server[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const server of servers) server.close();
});

function run(script: string, env: Record<string, string>, body?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'webhook-doc-'));
  dirs.push(cwd);
  if (body !== undefined) writeFileSync(join(cwd, 'body.json'), body);
  return new Promise((resolve) =>
    execFile('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const now = () => Math.floor(Date.now() / 1000);
// Multi-byte characters, a newline inside and at the end: the recipe must hash the exact bytes.
const body = '{"type":"user.created","timestamp":"2026-03-01T12:00:00.000Z","data":{"name":"Zoë – ✓",\n"id":"usr_1"}}\n';

describe.skipIf(!has('openssl'))('docs/webhooks-verify.md: openssl', () => {
  const secret = newWebhookSecret();
  const env = (headers: ReturnType<typeof signedHeaders>) => ({
    SECRET: secret,
    WEBHOOK_ID: headers['webhook-id'],
    WEBHOOK_TIMESTAMP: headers['webhook-timestamp'],
    WEBHOOK_SIGNATURE: headers['webhook-signature'],
  });

  it('accepts a delivery signed by sign(), also as the second of two signatures', async () => {
    const single = signedHeaders({ secrets: secret, id: 'msg_doc_1', timestamp: now(), body });
    expect(await run(recipe('verify-openssl'), env(single), body)).toMatchObject({ code: 0, stdout: 'signature ok\n' });
    const rotating = signedHeaders({ secrets: [newWebhookSecret(), secret], id: 'msg_doc_2', timestamp: now(), body });
    expect(await run(recipe('verify-openssl'), env(rotating), body)).toMatchObject({ code: 0, stdout: 'signature ok\n' });
  });

  it('refuses a tampered body, another secret and a stale timestamp', async () => {
    const headers = signedHeaders({ secrets: secret, id: 'msg_doc_3', timestamp: now(), body });
    const tampered = await run(recipe('verify-openssl'), env(headers), body.replace('usr_1', 'usr_2'));
    expect(tampered).toMatchObject({ code: 1, stdout: 'signature does not match\n' });
    const other = signedHeaders({ secrets: newWebhookSecret(), id: 'msg_doc_3', timestamp: now(), body });
    expect(await run(recipe('verify-openssl'), env(other), body)).toMatchObject({ code: 1, stdout: 'signature does not match\n' });
    const stale = signedHeaders({ secrets: secret, id: 'msg_doc_4', timestamp: now() - 3600, body });
    const result = await run(recipe('verify-openssl'), env(stale), body);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^signature ok, but 36\d\d s old\n$/);
  });

  it.skipIf(!has('curl'))('signs a test delivery with openssl that verifyWebhook accepts, sent with curl', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        try {
          const event = verifyWebhook<{ id: string }>(secret, request.headers, Buffer.concat(chunks));
          seen.push(`${event.type} ${event.data.id}`);
          response.writeHead(204).end();
        } catch (error) {
          seen.push((error as WebhookVerificationError).reason);
          response.writeHead(400).end((error as WebhookVerificationError).reason);
        }
      });
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/gatehouse`;
    expect(await run(recipe('send-curl'), { SECRET: secret, URL: url })).toMatchObject({ code: 0 });
    // The same recipe with another secret is refused, and curl reports the failure.
    expect((await run(recipe('send-curl'), { SECRET: newWebhookSecret(), URL: url })).code).not.toBe(0);
    expect(seen).toEqual(['user.created evt_test', 'no_matching_signature']);
  });
});
