/** Sign-in secrets of users. Passwords use method `password` (one per user); passkeys add their own rows. */
export interface CredentialTables {
  credentials: {
    id: string;
    project_id: string;
    user_id: string;
    method: string;
    secret: string;
    created_at: Date;
    updated_at: Date;
  };
}
