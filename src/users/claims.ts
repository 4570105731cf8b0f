import { valueAt, type SchemaModel } from '../schemas/document.js';

export interface UserClaims {
  sub: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  picture?: string;
  given_name?: string;
  family_name?: string;
  [claim: string]: unknown;
}

/**
 * OIDC claims from the `x-claim` keywords of the user's schema. `sub` is always the user id; only
 * string values are mapped (a claim is never an object). `name`, when no property feeds it, is
 * composed from `given_name` and `family_name`, as userinfo consumers expect a display name.
 * `email_verified` says whether the property feeding `email` was proved by a mailed code or link
 * (`metadata.verified`, DESIGN §4.11).
 */
export function claimsOf(model: SchemaModel, user: { id: string; attributes: Record<string, unknown>; metadata?: { verified?: Record<string, string> } }): UserClaims {
  const claims: UserClaims = { sub: user.id };
  for (const property of model.properties) {
    if (!property.claim || property.claim === 'sub' || claims[property.claim] !== undefined) continue;
    const value = valueAt(user.attributes, property.path);
    if (typeof value === 'string' && value.length > 0) {
      claims[property.claim] = value;
      if (property.claim === 'email') claims.email_verified = user.metadata?.verified?.[property.path] !== undefined;
    }
  }
  if (claims.name === undefined) {
    const composed = [claims.given_name, claims.family_name].filter((part) => typeof part === 'string' && part.length > 0).join(' ');
    if (composed) claims.name = composed;
  }
  return claims;
}

/** What a session shows about its user: a display name and an e-mail address, when known. */
export function profileOf(claims: UserClaims): { name?: string; email?: string } {
  const profile: { name?: string; email?: string } = {};
  const name = claims.name ?? claims.preferred_username ?? claims.nickname;
  if (typeof name === 'string') profile.name = name;
  if (claims.email !== undefined) profile.email = claims.email;
  return profile;
}
