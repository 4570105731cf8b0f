import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local HTTP receivers for the webhook scenarios: each verifies every delivery's Standard Webhooks
 * signature (HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret)
 * before counting it, and answers 204. A delivery whose signature does not verify is counted as
 * bad and answered 401 (the worker would retry it; the scenario reports it as an error).
 */
export interface Receiver {
  url: string;
  /** set once the endpoint is registered (the secret is only shown then) */
  secret?: string;
  /** verified deliveries by webhook-id (a retried id is counted once): when, and how long after its event */
  received: Map<string, { at: number; latencyMs: number }>;
  bad: number;
  server: Server;
}

export function verifies(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const expected = createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function startReceivers(count: number): Promise<Receiver[]> {
  const receivers: Receiver[] = [];
  for (let i = 0; i < count; i++) {
    const receiver = { received: new Map(), bad: 0 } as unknown as Receiver;
    receiver.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (!receiver.secret || !verifies(receiver.secret, request.headers, body)) {
          receiver.bad++;
          response.writeHead(401).end();
          return;
        }
        const id = request.headers['webhook-id'] as string;
        if (!receiver.received.has(id)) {
          const at = Date.now();
          receiver.received.set(id, { at, latencyMs: at - Date.parse((JSON.parse(body) as { timestamp: string }).timestamp) });
        }
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
    receivers.push(receiver);
  }
  return receivers;
}

export async function stopReceivers(receivers: Receiver[]): Promise<void> {
  await Promise.all(receivers.map((receiver) => new Promise<void>((resolve) => receiver.server.close(() => resolve()))));
}

/** Registers one endpoint per receiver in the project, subscribed to `events`; the endpoint ids. */
export async function registerEndpoints(baseUrl: string, projectId: string, secret: string, receivers: Receiver[], events: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const receiver of receivers) {
    const response = await fetch(`${baseUrl}/projects/${projectId}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events }),
    });
    const json = (await response.json()) as { id?: string; secret?: string; code?: string };
    if (response.status !== 201 || !json.id || !json.secret) throw new Error(`POST /projects/{id}/webhooks answered ${response.status} ${json.code ?? ''} (is GATEHOUSE_WEBHOOK_ALLOW_PRIVATE=1 set?)`);
    receiver.secret = json.secret;
    ids.push(json.id);
  }
  return ids;
}
