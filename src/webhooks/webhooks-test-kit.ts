import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback: it answers each request with the next status of `plan` (then 200), or holds it when the plan says `hang`. */
export async function receiver(plan: Array<number | 'hang'> = []): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const held: Array<() => void> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const next = plan.shift() ?? 200;
      if (next === 'hang') {
        held.push(() => response.destroy());
        return;
      }
      response.writeHead(next, { 'content-type': 'text/plain' }).end(next < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: async () => {
      for (const release of held) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
