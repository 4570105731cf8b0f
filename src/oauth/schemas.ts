import { Type, type TSchema } from 'typebox';

/** Errors of the /auth routes: the RFC fields and Gatehouse's error body together. */
export const OAuthErrorBody = Type.Object(
  {
    // Always present; optional here only so that `required` lists the body every error shares.
    error: Type.Optional(Type.String({ description: 'RFC 6749 / 6750 / 7009 error name' })),
    error_description: Type.Optional(Type.String()),
    code: Type.String({ description: '`oauth.<error>`, or a Gatehouse code such as `req.too_large`' }),
    message: Type.String(),
    details: Type.Object({}, { additionalProperties: true }),
  },
  { description: 'OAuth error: `error`/`error_description` for standard clients, `code`/`message`/`details` as everywhere' },
);

const ERROR_STATUSES = [400, 401, 403, 404, 413, 415, 429, 500, 503] as const;

/** Response schemas for an /auth route: the given successes plus the OAuth error body for every error status. */
export function oauthResponses(success: Record<number, TSchema>): Record<number, TSchema> {
  const responses: Record<number, TSchema> = { ...success };
  for (const status of ERROR_STATUSES) responses[status] = OAuthErrorBody;
  return responses;
}

export const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer(),
    scope: Type.String(),
    refresh_token: Type.Optional(Type.String()),
    id_token: Type.Optional(Type.String()),
    issued_token_type: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const JwksSchema = Type.Object({ keys: Type.Array(Type.Object({}, { additionalProperties: true })) });

export const IntrospectionSchema = Type.Object(
  {
    active: Type.Boolean(),
    scope: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    token_type: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    iss: Type.Optional(Type.String()),
    sub: Type.Optional(Type.String()),
    sid: Type.Optional(Type.String()),
    project_id: Type.Optional(Type.String()),
    jti: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const DiscoverySchema = Type.Object({ issuer: Type.String() }, { additionalProperties: true });

export const UserInfoSchema = Type.Object(
  {
    sub: Type.String(),
    name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    email_verified: Type.Optional(Type.Boolean({ description: 'Whether a mailed code or link proved the address (DESIGN §4.11)' })),
    preferred_username: Type.Optional(Type.String()),
    picture: Type.Optional(Type.String()),
    given_name: Type.Optional(Type.String()),
    family_name: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
