import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real node:http server on 127.0.0.1 that records every connection and request reaching it. */
export interface RecordingServer {
  port: number;
  url: string;
  /** TCP connections the server accepted */
  connections: number;
  requests: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }>;
}

/**
 * Starts recording servers for the outbound client's tests; `closeAll` (an `afterEach`) stops them.
 * `answer` sees each request once its body has arrived.
 */
export function recordingServers(): {
  start(answer: (request: IncomingMessage, response: ServerResponse, state: RecordingServer) => void): Promise<RecordingServer>;
  servers: Server[];
  closeAll(): void;
} {
  const servers: Server[] = [];
  return {
    servers,
    closeAll() {
      for (const server of servers.splice(0)) {
        server.closeAllConnections();
        server.close();
      }
    },
    async start(answer) {
      const state: RecordingServer = { port: 0, url: '', connections: 0, requests: [] };
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          state.requests.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString() });
          answer(request, response, state);
        });
      });
      server.on('connection', () => state.connections++);
      servers.push(server);
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      state.port = (server.address() as AddressInfo).port;
      state.url = `http://127.0.0.1:${state.port}`;
      return state;
    },
  };
}
