import { Type } from 'typebox';
import { Timestamp } from '../http/schemas.js';

/** Response shapes of the sessions domain (interface: Session, Factor). */
export const FactorSchema = Type.Object({
  method: Type.String(),
  verified_at: Timestamp,
  payload: Type.Object({ user_id: Type.String() }, { additionalProperties: true }),
});

export const UserAgentSchema = Type.Object({
  fingerprint: Type.Optional(Type.String()),
  ip: Type.Optional(Type.String()),
});

export const SessionStateSchema = Type.Union([Type.Literal('building'), Type.Literal('active'), Type.Literal('expired')]);

const common = {
  session_id: Type.String(),
  project_id: Type.String(),
  state: SessionStateSchema,
  user_id: Type.Optional(Type.String()),
  factors: Type.Array(FactorSchema),
  assurance_levels: Type.Array(Type.String(), { description: 'urn:nist:aal:1, urn:nist:aal:2; computed at read time' }),
  metadata: Type.Object({}, { additionalProperties: true }),
  user_agent: UserAgentSchema,
  created_at: Timestamp,
  expires_at: Timestamp,
};

export const SessionListItemSchema = Type.Object(common);

export const SessionSchema = Type.Object({
  ...common,
  name: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
});

export const IssuedSessionSchema = Type.Object({
  session: SessionSchema,
  session_token: Type.String({ description: 'Also set as the __service_session cookie; supersedes any earlier token' }),
});

export const SessionIdParams = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 64 }) });
