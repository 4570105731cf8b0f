/**
 * `npm run cluster -- --nodes 3`: N PostgreSQL-backed Gatehouse nodes and a round-robin proxy in
 * front of them, all on loopback. Prints the proxy's URL and the admin token; Ctrl-C stops it all.
 *
 * Options: `--nodes N` (default 3), `--port P` for the proxy (default 8080), `--database-url URL`
 * (default: DATABASE_URL, else the database `gatehouse_cluster` on 127.0.0.1:5432, created when
 * missing and kept between runs). The admin token and secret come from GATEHOUSE_ADMIN_TOKEN and
 * GATEHOUSE_SECRET, else are generated for this run. OTEL_EXPORTER_OTLP_ENDPOINT reaches every node.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { freeLoopbackPort, startNodes, type ClusterNode } from './cluster/nodes.js';
import { RoundRobinProxy } from './cluster/proxy.js';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3' },
    port: { type: 'string', default: '8080' },
    'database-url': { type: 'string' },
  },
});

async function ensureDatabase(): Promise<string> {
  const given = args['database-url'] ?? process.env.DATABASE_URL;
  if (given) return given;
  const url = 'postgres://postgres@127.0.0.1:5432/gatehouse_cluster';
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', ['gatehouse_cluster']);
    if (exists.rowCount === 0) await admin.query('create database gatehouse_cluster');
  } finally {
    await admin.end();
  }
  return url;
}

async function main(): Promise<void> {
  const count = Number(args.nodes);
  if (!Number.isInteger(count) || count < 1 || count > 16) throw new Error('--nodes takes a whole number from 1 to 16');
  const databaseUrl = await ensureDatabase();
  const ports = await Promise.all(Array.from({ length: count }, () => freeLoopbackPort()));
  const proxy = new RoundRobinProxy(ports);
  const publicUrl = await proxy.start(Number(args.port));
  const adminToken = process.env.GATEHOUSE_ADMIN_TOKEN ?? `gh_admin_${randomBytes(24).toString('base64url')}`;
  const secret = process.env.GATEHOUSE_SECRET ?? randomBytes(32).toString('base64url');
  const extraEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (key.startsWith('OTEL_') && value) extraEnv[key] = value;
  console.log(`cluster: starting ${count} nodes on ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`);
  let nodes: ClusterNode[] = [];
  let stopping = false;
  // Ctrl-C reaches the nodes too (one process group): then they are only waited for.
  const stop = async (code: number, signalNodes: boolean) => {
    if (stopping) return;
    stopping = true;
    console.log('\ncluster: stopping');
    await Promise.all(nodes.map((node) => node.stop(signalNodes)));
    for (const node of nodes) node.removeDataDir();
    await proxy.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0, false));
  process.on('SIGTERM', () => void stop(0, true));
  nodes = await startNodes(count, { databaseUrl, publicUrl, adminToken, secret, logLevel: process.env.LOG_LEVEL ?? 'warn', extraEnv }, ports);
  for (const node of nodes) {
    node.child!.once('exit', (code, signal) => {
      if (!stopping) console.log(`cluster: node ${node.index} (${node.url}) exited (${code ?? signal}); the proxy routes around it\n${node.output.slice(-2000)}`);
    });
  }
  console.log(nodes.map((node) => `cluster: node ${node.index} at ${node.url}`).join('\n'));
  console.log(`cluster: admin token ${adminToken}`);
  console.log(`cluster: ready at ${publicUrl} (round-robin over ${count} nodes); Ctrl-C stops everything`);
}

main().catch((error: unknown) => {
  console.error(`cluster: ${(error as Error).message}`);
  process.exit(1);
});
