// Times the session check's rendering alone (`toSession` of a cached row), in-process, against
// `Date.prototype.toISOString` for scale: the per-call figure that an HTTP run on a shared
// machine is too noisy to show. Usage: npm run -s build && node bench/view-micro.mjs
import { toSession } from '../dist/sessions/view.js';
import { DEFAULT_SESSION_SETTINGS } from '../dist/sessions/settings.js';

const CALLS = 1_000_000;
const now = new Date();
const row = {
  id: 'sess_01JABCDEFGHJKMNPQRSTVWXYZ',
  project_id: 'proj_01JABCDEFGHJKMNPQRSTVWXYZ',
  state: 'active',
  user_id: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ',
  lifecycle_owner_team_id: null,
  factors: [{ method: 'password', verified_at: new Date(now.getTime() - 1000).toISOString(), payload: { user_id: 'usr_01JABCDEFGHJKMNPQRSTVWXYZ' } }],
  metadata: {},
  user_agent: { ip: '192.0.2.1' },
  token_hash: 'a'.repeat(64),
  created_at: now,
  updated_at: now,
  expires_at: new Date(now.getTime() + 3_600_000),
};
const profile = { name: 'Ada', email: 'ada@example.com' };

function time(label, run) {
  let sink = 0;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) sink += run();
    if (round > 0) console.log(`${label}: ${(((performance.now() - start) * 1000) / CALLS).toFixed(3)} µs per call`);
  }
  return sink;
}

time('toSession (cached row, with profile)', () => toSession(row, DEFAULT_SESSION_SETTINGS, now, profile).expires_at.length);
time('Date.prototype.toISOString, for scale', () => now.toISOString().length);
