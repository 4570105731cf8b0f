import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../http/auth.js';
import { ErrorBody, Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../http/schemas.js';
import { actorRefOf } from '../schemas/caller.js';
import type { EventType } from '../events/types.js';
import type { WebhookService } from './service.js';

const WebhookSchema = Type.Object({
  id: Type.String({ description: 'wh_…' }),
  project_id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String(), { description: 'Event types (docs/events.md), or ["*"] for every type' }),
  description: Type.Optional(Type.String()),
  enabled: Type.Boolean({ description: 'false once disabled (by PATCH, or after 5 days of failures)' }),
  disabled_at: Type.Optional(Timestamp),
  failing_since: Type.Optional(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Secret = Type.String({ description: 'whsec_…: shown in this answer only; it signs every delivery (Standard Webhooks)' });

const DeliverySchema = Type.Object({
  id: Type.String({ description: 'msg_…: the webhook-id header, the same on every retry' }),
  event_id: Type.String(),
  event_type: Type.String({ description: 'The type of the event it carries' }),
  occurred_at: Timestamp,
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  next_attempt_at: Type.Optional(Timestamp),
  last_status_code: Type.Optional(Type.Integer()),
  last_error: Type.Optional(Type.String()),
  delivered_at: Type.Optional(Timestamp),
  created_at: Timestamp,
});

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https; a public address (private, loopback and link-local targets are refused unless GATEHOUSE_OUTBOUND_ALLOW_PRIVATE=1; a loopback receiver, http too, when the public URL is itself loopback)' });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 });
const Description = Type.String({ maxLength: 500 });

const ProjectParams = Type.Object({ project_id: Id() });
const WebhookParams = Type.Object({ project_id: Id(), webhook_id: Id() });
const DeliveryParams = Type.Object({ project_id: Id(), webhook_id: Id(), delivery_id: Id() });
const config = (emits: EventType[]) => ({ tenancy: { project: 'params' }, scope: 'project.write', emits }) as const;
const read = { tenancy: { project: 'params' }, scope: 'project.write' } as const;

/** Webhook endpoints of a project and their delivery log (DESIGN §4.18); `project.write`. */
export function webhookRoutes(root: FastifyInstance, webhooks: WebhookService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = (request: Parameters<typeof principalOf>[0]) => actorRefOf(principalOf(request));

  app.post(
    '/projects/:project_id/webhooks',
    {
      config: config(['webhook.created']),
      schema: {
        tags: ['webhooks'],
        summary: 'Register a webhook endpoint; the answer holds its signing secret, once',
        params: ProjectParams,
        body: Type.Object({ url: Url, events: Events, description: Type.Optional(Description) }, { additionalProperties: false }),
        response: { 201: Type.Intersect([WebhookSchema, Type.Object({ secret: Secret })]), 400: ErrorBody },
      },
    },
    async (request, reply) => reply.status(201).send(await webhooks.create(request.params.project_id, request.body, actor(request))),
  );

  app.get(
    '/projects/:project_id/webhooks',
    { config: read, schema: { tags: ['webhooks'], summary: 'List webhook endpoints', params: ProjectParams, querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: listOf('webhooks', WebhookSchema) } } },
    async (request) => listBody('webhooks', await webhooks.list(request.params.project_id, { limit: request.query.limit, pageToken: request.query.page_token })),
  );

  app.get(
    '/projects/:project_id/webhooks/:webhook_id',
    { config: read, schema: { tags: ['webhooks'], summary: 'Read a webhook endpoint (never its secret)', params: WebhookParams, response: { 200: WebhookSchema, 404: ErrorBody } } },
    async (request) => webhooks.get(request.params.project_id, request.params.webhook_id),
  );

  app.patch(
    '/projects/:project_id/webhooks/:webhook_id',
    {
      config: config(['webhook.updated']),
      schema: {
        tags: ['webhooks'],
        summary: 'Change a webhook endpoint; enabled: true re-enables a disabled one',
        params: WebhookParams,
        body: Type.Object({ url: Type.Optional(Url), events: Type.Optional(Events), description: Type.Optional(Type.Union([Description, Type.Null()])), enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        response: { 200: WebhookSchema, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => webhooks.update(request.params.project_id, request.params.webhook_id, request.body, actor(request)),
  );

  app.delete(
    '/projects/:project_id/webhooks/:webhook_id',
    { config: config(['webhook.deleted']), schema: { tags: ['webhooks'], summary: 'Delete a webhook endpoint and its pending deliveries', params: WebhookParams, response: { 204: NoContent, 404: ErrorBody } } },
    async (request, reply) => {
      await webhooks.delete(request.params.project_id, request.params.webhook_id, actor(request));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/projects/:project_id/webhooks/:webhook_id/rotate_secret',
    {
      config: config(['webhook.secret_rotated']),
      schema: {
        tags: ['webhooks'],
        summary: 'A new signing secret, shown once; the previous one also signs for 24 h (two signatures per delivery)',
        params: WebhookParams,
        response: { 200: Type.Object({ secret: Secret, previous_valid_until: Timestamp }), 404: ErrorBody },
      },
    },
    async (request) => webhooks.rotateSecret(request.params.project_id, request.params.webhook_id, actor(request)),
  );

  app.get(
    '/projects/:project_id/webhooks/:webhook_id/deliveries',
    { config: read, schema: { tags: ['webhooks'], summary: "An endpoint's deliveries, newest first", params: WebhookParams, querystring: Type.Object(PageQuery, { additionalProperties: false }), response: { 200: listOf('deliveries', DeliverySchema), 404: ErrorBody } } },
    async (request) => listBody('deliveries', await webhooks.deliveries(request.params.project_id, request.params.webhook_id, { limit: request.query.limit, pageToken: request.query.page_token })),
  );

  app.post(
    '/projects/:project_id/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    {
      config: { ...read, emits: [], emitsNone: 'a delivery is scheduled again; the event it carries was recorded when it happened' },
      schema: { tags: ['webhooks'], summary: 'Send a delivery again now (same webhook-id), with a fresh 24 h of retries', params: DeliveryParams, response: { 202: DeliverySchema, 404: ErrorBody } },
    },
    async (request, reply) => reply.status(202).send(await webhooks.redeliver(request.params.project_id, request.params.webhook_id, request.params.delivery_id)),
  );
}
