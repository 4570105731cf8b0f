import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** Answer header naming the node (0-based) that served a request, or that failed it. */
export const NODE_HEADER = 'x-cluster-node';

export interface Upstream {
  port: number;
  /** False from the first failed connection until a health check passes again. */
  up: boolean;
  /** When the proxy last took it out of rotation (performance.now()), if ever. */
  downAt?: number;
}

/** A request the proxy could not complete because its node failed while serving it. */
export interface ProxyFailure {
  node: number;
  method: string;
  path: string;
  /** performance.now() when it was sent to the node, and when the node failed it. */
  sentAt: number;
  failedAt: number;
  error: string;
}

/** Connection errors that prove the node never received the request: it is safe to send it elsewhere. */
const NEVER_ARRIVED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);
const HEALTH_INTERVAL_MS = 100;

/**
 * A small round-robin HTTP load balancer in front of Gatehouse nodes on loopback (node:http), like a
 * production one: a node that refuses a connection is taken out of rotation at once and the request
 * goes to the next node (it never reached the first); a node that fails a request it has received
 * (killed mid-request) is taken out too, and that request answers 502, since it may have been
 * half-done; `GET /readyz` every 100 ms puts a node back once it answers 200.
 */
export class RoundRobinProxy {
  readonly upstreams: Upstream[];
  readonly failures: ProxyFailure[] = [];
  private next = 0;
  private server: Server | undefined;
  private health: NodeJS.Timeout | undefined;
  /**
   * A new connection per request, as nginx does by default towards upstreams: a node that died
   * then refuses the connection (the request goes elsewhere) instead of resetting a kept-alive one
   * after the request was written to it, so only requests a node had already accepted are lost.
   */
  private readonly agent = new Agent({ keepAlive: false });
  port = 0;

  constructor(ports: number[]) {
    this.upstreams = ports.map((port) => ({ port, up: true }));
  }

  async start(port = 0): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    this.health = setInterval(() => void this.checkHealth(), HEALTH_INTERVAL_MS);
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    clearInterval(this.health);
    this.agent.destroy();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private markDown(node: number): void {
    const upstream = this.upstreams[node];
    if (!upstream.up) return;
    upstream.up = false;
    upstream.downAt = performance.now();
  }

  private pick(tried: Set<number>): number | undefined {
    for (let i = 0; i < this.upstreams.length; i++) {
      const node = (this.next + i) % this.upstreams.length;
      if (this.upstreams[node].up && !tried.has(node)) {
        this.next = (node + 1) % this.upstreams.length;
        return node;
      }
    }
    return undefined;
  }

  private async checkHealth(): Promise<void> {
    await Promise.all(
      this.upstreams.map(async (upstream) => {
        if (upstream.up) return;
        try {
          const answer = await fetch(`http://127.0.0.1:${upstream.port}/readyz`, { signal: AbortSignal.timeout(1000) });
          await answer.arrayBuffer();
          if (answer.status === 200) upstream.up = true;
        } catch {
          // still down
        }
      }),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    delete req.headers['transfer-encoding'];
    req.headers['content-length'] = String(body.length);
    const tried = new Set<number>();
    for (;;) {
      const node = this.pick(tried);
      if (node === undefined) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end('{"code":"unavailable","message":"No node is available.","details":{}}');
        return;
      }
      tried.add(node);
      const outcome = await this.forward(node, req, res, body);
      if (outcome !== 'retry') return;
    }
  }

  private forward(node: number, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<'done' | 'retry'> {
    const sentAt = performance.now();
    return new Promise((resolve) => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: this.upstreams[node].port, method: req.method, path: req.url, headers: req.headers, agent: this.agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [NODE_HEADER]: String(node) });
          answer.pipe(res);
          answer.on('end', () => resolve('done'));
          answer.on('error', (error) => {
            this.fail(node, req, sentAt, error);
            res.destroy();
            resolve('done');
          });
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        this.markDown(node);
        if (NEVER_ARRIVED.has(error.code ?? '') || res.headersSent) {
          if (res.headersSent) res.destroy();
          resolve(res.headersSent ? 'done' : 'retry');
          return;
        }
        this.fail(node, req, sentAt, error);
        res.writeHead(502, { 'content-type': 'application/json', [NODE_HEADER]: String(node) });
        res.end('{"code":"bad_gateway","message":"The node failed while serving the request.","details":{}}');
        resolve('done');
      });
      upstream.end(body);
    });
  }

  private fail(node: number, req: IncomingMessage, sentAt: number, error: NodeJS.ErrnoException): void {
    this.markDown(node);
    this.failures.push({ node, method: req.method ?? '?', path: (req.url ?? '').split('?')[0], sentAt, failedAt: performance.now(), error: error.code ?? error.message });
  }
}
