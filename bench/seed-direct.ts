/**
 * Mints many fresh handoff tokens for the exchange scenario straight through the service layer
 * (the same code the flows use), against the benchmark's PostgreSQL database. Logging in once per
 * token over HTTP would make the seeding, not the exchange, the thing measured.
 */
import { sql } from 'kysely';
import { createCompletedAttempt } from '../src/attempts/testing.js';
import { testConfig } from '../src/config.js';
import { closeContainer, createContainer } from '../src/container.js';
import { openPostgres } from '../src/db/engine.js';

export async function mintHandoffTokensDirect(options: {
  databaseUrl: string;
  secret: string;
  projectId: string;
  userEmail?: string;
  count: number;
}): Promise<string[]> {
  if (!options.userEmail) throw new Error('no seeded user to mint handoff tokens for');
  const engine = await openPostgres(options.databaseUrl, 16);
  const container = createContainer(testConfig({ secrets: [Buffer.from(options.secret, 'utf8')], logLevel: 'warn' }), { engine });
  try {
    const user = await container.users.findByIdentifier(options.projectId, undefined, options.userEmail);
    if (!user) throw new Error(`seeded user ${options.userEmail} not found`);
    const tokens: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < options.count) {
          next++;
          const attempt = await createCompletedAttempt(container.attempts, options.projectId, user.id);
          tokens.push((await container.attempts.handoff(options.projectId, attempt.id)).handoff_token);
        }
      }),
    );
    // A token lives 60 s; minting tens of thousands and exchanging them can take longer on a slow
    // or busy machine, which would measure 404s. The lifetime is not what the scenario measures.
    await sql`update handoff_tokens set expires_at = now() + interval '1 hour' where project_id = ${options.projectId} and consumed_at is null`.execute(container.db);
    return tokens;
  } finally {
    await closeContainer(container);
  }
}
