import { Type } from 'typebox';

/*
 * What passkeys add to the API's shapes (DESIGN §4.10): `step.challenge` and the submit body's
 * `challenge_response`. The schemas feed the OpenAPI document and the submit body's checks; the
 * module augmentations below give `StepView` and `SubmitInput` the same members for TypeScript.
 */

/** `step.challenge`: the WebAuthn options a browser passes to `navigator.credentials`. */
export interface ChallengeView {
  challenge_id: string;
  method: 'passkey' | 'passkey_register';
  /** `PublicKeyCredentialRequestOptionsJSON` or `PublicKeyCredentialCreationOptionsJSON` */
  options: Record<string, unknown>;
  /** `conditional` on a rendered step: offer passkeys in the identifier field's autofill */
  mediation?: 'conditional';
}

/** The answer to a challenge: `proof` is the credential's `toJSON()`. */
export interface ChallengeResponse {
  challenge_id: string;
  method: string;
  proof: unknown;
}

// Inside the augmentation `ChallengeView` would name view.ts's alias of this very member.
type OwnChallengeView = ChallengeView;

declare module '../../view.js' {
  interface StepView {
    /** a passkey ceremony to run (DESIGN §4.10) */
    challenge?: OwnChallengeView;
  }
  interface SubmitInput {
    challenge_response?: ChallengeResponse;
  }
}

const Open = { additionalProperties: true } as const;

export const passkeyStepExtensions = {
  // after the step's gates, before its error (runtime/schemas.ts places): where clients have seen it
  challenge: {
    at: 80,
    schema: Type.Optional(
      Type.Object(
        {
          challenge_id: Type.String(),
          method: Type.String({ description: '`passkey` or `passkey_register`' }),
          options: Type.Object({}, { additionalProperties: true, description: 'PublicKeyCredentialRequestOptionsJSON or PublicKeyCredentialCreationOptionsJSON' }),
          mediation: Type.Optional(Type.String({ description: '`conditional`: offer passkeys in the autofill of the identifier field' })),
        },
        Open,
      ),
    ),
  },
};

export const passkeySubmitMembers = {
  challenge_response: Type.Optional(
    Type.Object(
      {
        challenge_id: Type.String({ minLength: 1, maxLength: 100 }),
        method: Type.String({ minLength: 1, maxLength: 50 }),
        proof: Type.Object({}, { additionalProperties: true, description: 'The credential\'s toJSON() (WebAuthn JSON)' }),
      },
      { additionalProperties: false, description: 'The answer to step.challenge (passkeys)' },
    ),
  ),
};
