import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.js';
import type { Clock } from '../../core/clock.js';
import { bearerToken } from '../../http/auth.js';
import { clearCookie, cookieValue, setCookieUntil } from '../../http/cookies.js';
import { afterAnswerOf } from '../../http/after-answer.js';
import { corsFor } from '../../http/cors.js';
import { assertSameOrigin } from '../../http/csrf.js';
import { Id, NoContent } from '../../http/schemas.js';
import type { ProjectService } from '../../projects/service.js';
import { SESSION_COOKIE } from '../../sessions/cookie.js';
import { FLOW_COOKIE } from '../cookie.js';
import type { FlowRuntime } from './engine.js';
import { FlowStateChanged } from '../errors.js';
import { stepSchema, submitBodySchema } from './schemas.js';
import { FLOW_TTL_MS } from '../state.js';
import { FlowRun } from './run.js';
import type { FlowResult, RequestContext } from './types.js';

const Unknown = Type.Object({}, { additionalProperties: true });

const flowResponseSchema = () =>
  Type.Object({
    id: Type.String(),
    session_id: Type.String(),
    session_token: Type.Optional(Type.String()),
    step: stepSchema(),
    branding: Unknown,
    redirect_uri: Type.Optional(Type.String()),
    handoff_token: Type.Optional(Type.String()),
    handoff_token_expires_at: Type.Optional(Type.String()),
  });

const StartBody = Type.Object(
  {
    project_id: Id('The project'),
    purpose: Type.String({ minLength: 1, maxLength: 50 }),
    session_id: Type.Optional(Id('An existing session to step up or re-authenticate; purpose `settings` needs it, and its session token (cookie __service_session or Authorization: Bearer)')),
    app_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Audience: the app the flow runs for' })),
    redirect_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Must exactly match an entry of the project\'s allow-list' })),
  },
  { additionalProperties: false },
);

const EventBody = Type.Object(
  {
    type: Type.Union([Type.Literal('fingerprint'), Type.Literal('telemetry')]),
    payload: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 50 })),
  },
  { additionalProperties: false },
);

const FlowParams = Type.Object({ id: Id('The latest flow id') });
const FlowQuery = Type.Object(
  { project_id: Type.Optional(Id('When given, a flow of another project answers 404 flow.not_found')) },
  { additionalProperties: false },
);

/** What the runtime knows about an HTTP caller (also the SSO callback's). */
export function contextOf(request: FastifyRequest, reply: FastifyReply): RequestContext {
  const ua = request.headers['user-agent'];
  const origin = request.headers.origin;
  return {
    ip: request.ip,
    userAgent: typeof ua === 'string' ? ua : undefined,
    cookie: cookieValue(request, FLOW_COOKIE),
    // A header a backend sends on purpose wins over a cookie that may be lying around (as /sessions/me).
    sessionToken: request.headers.authorization !== undefined ? bearerToken(request) : cookieValue(request, SESSION_COOKIE),
    origin: typeof origin === 'string' ? origin : undefined,
    acceptLanguage: typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined,
    afterAnswer: afterAnswerOf(reply),
    log: (message, details) => request.log.warn(details, message),
  };
}

export interface FlowRuntimeRouteDeps {
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
  projects: ProjectService;
}

export function flowRuntimeRoutes(root: FastifyInstance, deps: FlowRuntimeRouteDeps, runtime: FlowRuntime): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['flows'];
  const security = [{ flowState: [] }];
  // Composed with the methods' declarations now: a method registered before the app is built is in them.
  const FlowResponseSchema = flowResponseSchema();
  const SubmitBody = submitBodySchema();

  const send = (request: FastifyRequest, reply: FastifyReply, result: FlowResult) => {
    const now = deps.clock.now();
    if (result.cookie === null) clearCookie(request, reply, FLOW_COOKIE);
    else setCookieUntil(request, reply, FLOW_COOKIE, result.cookie, now, new Date(now.getTime() + FLOW_TTL_MS));
    for (const side of result.setCookies ?? []) setCookieUntil(request, reply, side.name, side.value, now, new Date(now.getTime() + side.maxAgeMs));
    return reply.status(200).send(result.body);
  };

  /** Cookie-authenticated unsafe requests must come from the service's origin or the project's preview origins. */
  const guard = async (request: FastifyRequest, projectId: string) => {
    const project = await deps.projects.row(projectId);
    assertSameOrigin(request, { publicUrl: deps.config.publicUrl, allowedOrigins: project?.preview_origins ?? [] });
  };

  app.post(
    '/flow',
    { config: { tenancy: 'credential', cors: true, emits: [], emitsNone: 'starts a run on an anonymous shell; what its steps change is logged by the submits' }, schema: { tags, summary: 'Start a flow for a purpose (sets _zflow)', body: StartBody, response: { 200: FlowResponseSchema } } },
    async (request, reply) => {
      corsFor(request, request.body.project_id);
      return send(request, reply, await runtime.start(request.body, contextOf(request, reply)));
    },
  );

  app.get(
    '/flow/:id',
    { config: { tenancy: 'credential', cors: true }, schema: { tags, summary: 'Re-render the current step without advancing', params: FlowParams, querystring: FlowQuery, security, response: { 200: FlowResponseSchema } } },
    async (request, reply) => {
      // A flow an SSO callback completed answers its result once (DESIGN §4.14).
      const found = await runtime.locate(request.params.id, contextOf(request, reply), request.query.project_id);
      corsFor(request, found.projectId);
      return send(request, reply, found instanceof FlowRun ? await runtime.show(found) : found.result);
    },
  );

  app.post(
    '/flow/:id/submit',
    { config: { tenancy: 'credential', cors: true, emits: ['login.failed', 'user.locked', 'user.created', 'credential.added', 'credential.removed', 'password.changed', 'recovery.requested', 'mfa.enabled', 'mfa.disabled', 'sso.linked', 'sso.unlinked'] }, schema: { tags, summary: 'Submit the current step', params: FlowParams, querystring: FlowQuery, body: SubmitBody, security, response: { 200: FlowResponseSchema } } },
    async (request, reply) => {
      const run = await runtime.open(request.params.id, contextOf(request, reply), request.query.project_id);
      corsFor(request, run.projectId);
      await guard(request, run.projectId);
      // The body schema checked every member, the methods' included (`submitMembers`).
      const { action, fields, captcha, ...members } = request.body;
      try {
        return send(request, reply, await runtime.submit(run, { action, fields: fields ?? {}, captcha, ...members }));
      } catch (error) {
        // The one refusal that changes the flow (a fresh passkey challenge) carries its cookie.
        if (error instanceof FlowStateChanged && error.cookie) {
          const now = deps.clock.now();
          setCookieUntil(request, reply, FLOW_COOKIE, error.cookie, now, new Date(now.getTime() + FLOW_TTL_MS));
        }
        throw error;
      }
    },
  );

  app.post(
    '/flow/:id/event',
    { config: { tenancy: 'credential', cors: true, emits: [], emitsNone: "client telemetry kept with the flow run (its risk signals), not the project's log" }, schema: { tags, summary: 'Record a fingerprint or telemetry event (never advances the flow)', params: FlowParams, querystring: FlowQuery, body: EventBody, security, response: { 204: NoContent } } },
    async (request, reply) => {
      const run = await runtime.open(request.params.id, contextOf(request, reply), request.query.project_id);
      corsFor(request, run.projectId);
      await guard(request, run.projectId);
      await runtime.event(run, { type: request.body.type, payload: request.body.payload });
      return reply.status(204).send(null);
    },
  );
}
