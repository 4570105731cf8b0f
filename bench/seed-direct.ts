/**
 * Mints many fresh handoff tokens for the exchange scenario straight through the service layer
 * (the same code the flows use), against the benchmark's PostgreSQL database. Logging in once per
 * token over HTTP would make the seeding, not the exchange, the thing measured.
 */
export async function mintHandoffTokensDirect(_options: {
  databaseUrl: string;
  secret: string;
  projectId: string;
  userEmail?: string;
  count: number;
}): Promise<string[]> {
  throw new Error('direct handoff minting is not wired to the attempts service yet');
}
