import { Type } from 'typebox';

const Open = { additionalProperties: true } as const;
const Unknown = Type.Object({}, Open);

/**
 * The interface's Step as OpenAPI describes it (generated clients type it from here), plus what
 * methods add (DESIGN §4.10-4.14). Objects stay open: a custom definition's step may carry more,
 * and the serializer passes it through.
 */
export const StepSchema = Type.Object(
  {
    name: Type.String(),
    type: Type.String({ description: '`complete` marks a terminal step' }),
    behavior: Type.Optional(Type.String({ description: 'on a complete step: `redirect` or `show`' })),
    texts: Type.Object({ title_key: Type.String(), description_key: Type.String() }, Open),
    fields: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), text_key: Type.String(), required: Type.Boolean(), value: Type.Optional(Type.String({ description: 'a value the flow collected already, to prefill (never a secret)' })) }, Open)),
    actions: Type.Array(Type.Object({ name: Type.String(), kind: Type.String(), text_key: Type.String(), primary: Type.Boolean() }, Open)),
    gates: Type.Optional(Type.Object({ captcha: Type.Optional(Unknown) }, Open)),
    challenge: Type.Optional(
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
    error: Type.Optional(Type.String({ description: 'a text key: something that happened between requests failed' })),
    warning: Type.Optional(Type.String({ description: 'a text key the user should act on' })),
    totp: Type.Optional(Type.Object({ secret: Type.String(), otpauth_uri: Type.String(), qr_svg: Type.String() }, Open)),
    recovery_codes: Type.Optional(Type.Array(Type.String(), { description: 'new recovery codes, in the answer that made them only' })),
    credentials: Type.Optional(
      Type.Array(Type.Object({ id: Type.String(), method: Type.String(), name: Type.Union([Type.String(), Type.Null()]), created_at: Type.String() }, Open), {
        description: 'settings: the signed-in user\'s credentials a `credential_id` may name',
      }),
    ),
    sso_providers: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), template: Type.String() }, Open))),
  },
  Open,
);
