import { Type } from 'typebox';

/** One of the signed-in user's credentials a settings step offers to remove (never a secret). */
export interface CredentialView {
  id: string;
  method: string;
  name: string | null;
  created_at: string;
}

declare module '../../view.js' {
  interface StepView {
    /** on a settings step that removes a credential: the signed-in user's credentials to choose from (never a secret) */
    credentials?: CredentialView[];
  }
}

export const settingsStepExtensions = {
  // before SSO's providers, though registered after them (runtime/schemas.ts places): where clients have seen it
  credentials: {
    at: 130,
    schema: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), method: Type.String(), name: Type.Union([Type.String(), Type.Null()]), created_at: Type.String() }, { additionalProperties: true }), {
        description: 'settings: the signed-in user\'s credentials a `credential_id` may name',
      }),
    ),
  },
};
