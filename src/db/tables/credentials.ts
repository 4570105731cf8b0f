/**
 * The columns every method's `credentials` row gained in migration 0060 (the table itself is
 * declared in db/tables/passwords.ts; Database intersects both).
 */
export interface CredentialListTables {
  credentials: {
    name: string | null;
    last_used_at: Date | null;
  };
}
