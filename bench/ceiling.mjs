// The ceiling: a raw node:http server answering a fixed session-shaped JSON body. Every
// Gatehouse scenario is reported as a ratio against this server, measured in the same run.
import { createServer } from 'node:http';

const body = JSON.stringify({
  session_id: 'sess_0123456789abcdefghjkmnpqrs',
  project_id: 'proj_0123456789abcdefghjkmnpqrs',
  state: 'active',
  user_id: 'usr_0123456789abcdefghjkmnpqrs',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  factors: [{ method: 'password', verified_at: '2030-01-01T00:00:00.000Z', payload: { user_id: 'usr_0123456789abcdefghjkmnpqrs' } }],
  assurance_levels: ['urn:nist:aal:1'],
  metadata: {},
  user_agent: { fingerprint: 'bench', ip: '127.0.0.1' },
  created_at: '2030-01-01T00:00:00.000Z',
  expires_at: '2030-01-02T00:00:00.000Z',
});

const port = Number(process.argv[2] ?? 0);
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(port, '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
