// The durable-write floor: a raw node:http server whose every POST commits one row through pg, as
// a new session does: a random id and the SHA-256 of a fresh random token, both unique, prepared.
// What an endpoint with one durable write can reach on this machine, with nothing of Gatehouse's
// (no framework, validation, authentication, events or log). Two modes:
// - `single`: one statement (one commit) per request, as the exchange runs;
// - `batched`: requests that arrive while statements are in flight wait and go together as one
//   multi-row insert (one commit for the batch): what cross-request group commit would buy.
// Usage: node bench/floor-server.mjs <port> <single|batched>  (DATABASE_URL: the bench's database)
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const port = Number(process.argv[2] ?? 0);
const mode = process.argv[3] === 'batched' ? 'batched' : 'single';
const table = `bench_floor_${mode}`;
// The same pool size as Gatehouse's (src/db/engine.ts).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
await pool.query(`create table if not exists ${table} (id text primary key, token_hash text not null unique, created_at timestamptz not null)`);

const insertOne = (row) =>
  pool.query({ name: 'floor_one', text: `insert into ${table} (id, token_hash, created_at) values ($1, $2, $3) returning id, created_at`, values: [row.id, row.hash, row.at] }).then((r) => r.rows[0]);

// Natural batching: at most `inFlight` statements at once; whatever queued meanwhile is the next batch.
const inFlight = 2;
let queue = [];
let running = 0;
function pump() {
  if (running >= inFlight || queue.length === 0) return;
  const batch = queue;
  queue = [];
  running++;
  pool
    .query({ name: 'floor_many', text: `insert into ${table} (id, token_hash, created_at) select * from unnest($1::text[], $2::text[], $3::timestamptz[]) returning id, created_at`, values: [batch.map((b) => b.id), batch.map((b) => b.hash), batch.map((b) => b.at)] })
    .then(
      (result) => {
        const byId = new Map(result.rows.map((row) => [row.id, row]));
        for (const b of batch) b.resolve(byId.get(b.id));
      },
      (error) => {
        for (const b of batch) b.reject(error);
      },
    )
    .finally(() => {
      running--;
      pump();
    });
}
const insertBatched = (row) =>
  new Promise((resolve, reject) => {
    queue.push({ ...row, resolve, reject });
    pump();
  });
const insert = mode === 'batched' ? insertBatched : insertOne;

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const token = randomBytes(32).toString('base64url');
    // A failed insert (or a batch that did not return this row) answers 500: the run counts it as non-2xx.
    insert({ id: `sess_${randomBytes(16).toString('hex')}`, hash: createHash('sha256').update(token).digest('hex'), at: new Date() })
      .then((row) => {
        const body = JSON.stringify({ session_id: row.id, session_token: token, created_at: row.created_at });
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      })
      .catch(() => {
        response.writeHead(500).end();
      });
  });
});
server.listen(port, '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
