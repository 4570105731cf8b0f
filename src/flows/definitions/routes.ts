import { tenantOf } from '../../http/tenancy.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { AppError } from '../../core/errors.js';
import { projectScope, type Principal } from '../../core/principal.js';
import { principalOf } from '../../http/auth.js';
import { actorRefOf } from '../../schemas/caller.js';
import { Id, listBody, listOf, NoContent, PageQuery, Timestamp } from '../../http/schemas.js';
import { stepProperties } from '../methods/registry.js';
import { composeProperties } from '../runtime/schemas.js';
import type { FlowDefinitionService } from './service.js';
import type { FlowDefinitionDoc, FlowStepDef } from './types.js';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const TextKey = Type.String({ minLength: 1, maxLength: 200 });

const FlowActionSchema = Type.Object(
  { name: Name, kind: Type.String({ minLength: 1, maxLength: 50 }), primary: Type.Optional(Type.Boolean()), text_key: Type.Optional(TextKey) },
  { additionalProperties: false },
);

/** A definition step's own properties; the methods' (`stepProperties`) follow them. */
const STEP_PROPERTIES: [string, TSchema][] = [
  ['name', Name],
  ['fields', Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 }))],
  ['actions', Type.Optional(Type.Array(FlowActionSchema, { maxItems: 20 }))],
  ['transitions', Type.Optional(Type.Record(Type.String(), Type.Object({ target: Name, action: Type.Optional(Type.String({ maxLength: 50 })) }, { additionalProperties: false })))],
  ['on_success', Type.Optional(Type.String({ maxLength: 50 }))],
  ['complete', Type.Optional(Type.String({ maxLength: 50 }))],
  ['gates', Type.Optional(Type.Record(Type.String(), Type.Object({ kind: Type.Optional(Type.String({ maxLength: 50 })) }, { additionalProperties: false })))],
  ['texts', Type.Optional(Type.Object({ title_key: Type.Optional(TextKey), description_key: Type.Optional(TextKey) }, { additionalProperties: false }))],
];

// Typed as `FlowStepDef`: the methods' properties are typed by their own `view.ts`.
const flowStepSchema = () => Type.Unsafe<FlowStepDef>(Type.Object(composeProperties(STEP_PROPERTIES, stepProperties(), 'flow definition step'), { additionalProperties: false }));

/** Built when the routes are, so a method registered before the app is built adds its step properties. */
export const flowDefinitionDocSchema = () =>
  Type.Object(
    {
      name: Name,
      status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive')])),
      user_schema: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      purposes: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_-]{0,49}$' }), Name, { additionalProperties: false }),
      audience: Type.Optional(Type.Object({ app_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50 })) }, { additionalProperties: false })),
      steps: Type.Array(flowStepSchema(), { minItems: 1, maxItems: 100 }),
    },
    { additionalProperties: false },
  );

const FlowDefinitionSchema = Type.Object({
  id: Type.String(),
  project_id: Type.String(),
  flow_definition: Type.Unsafe<FlowDefinitionDoc>(Type.Object({}, { additionalProperties: true })),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const ListEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  project_id: Type.String(),
  schema_uri: Type.String(),
  status: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const body = () =>
  Type.Object(
    {
      project_id: Type.Optional(Id('The project (defaults to the credential\'s project)')),
      schema_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
      flow_definition: flowDefinitionDocSchema(),
    },
    { additionalProperties: false },
  );

const scopedProject = (principal: Principal) => projectScope(principal);

export function flowDefinitionRoutes(root: FastifyInstance, definitions: FlowDefinitionService): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['flow definitions'];
  const Body = body();

  app.post(
    '/flow_definitions',
    { config: { tenancy: { project: 'body' }, scope: 'flow_definition.write', emits: ['flow_definition.created'] }, schema: { tags, summary: 'Create a flow definition', body: Body, response: { 201: FlowDefinitionSchema } } },
    async (request, reply) => {
      const projectId = tenantOf(request);
      const created = await definitions.create(projectId, { schema_uri: request.body.schema_uri, flow_definition: request.body.flow_definition as FlowDefinitionDoc }, actorRefOf(principalOf(request)));
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/flow_definitions/validate',
    {
      config: { tenancy: { project: 'body' }, scope: 'flow_definition.write', emits: [], emitsNone: 'a check that stores nothing' },
      schema: { tags, summary: 'Check a flow definition document as a create or update would (400 with the same errors), storing nothing; a taken name is refused only by the write', body: Body, response: { 204: NoContent } },
    },
    async (request, reply) => {
      await definitions.check(tenantOf(request), { schema_uri: request.body.schema_uri, flow_definition: request.body.flow_definition as FlowDefinitionDoc });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/flow_definitions',
    {
      config: { tenancy: { project: 'query' }, scope: 'flow_definition.read' },
      schema: {
        tags,
        summary: 'List flow definitions',
        querystring: Type.Object({ ...PageQuery, project_id: Type.Optional(Id()), purpose: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })) }, { additionalProperties: false }),
        response: { 200: listOf('flow_definitions', ListEntry) },
      },
    },
    async (request) => {
      const projectId = tenantOf(request);
      const page = await definitions.list(projectId, request.query.purpose, { limit: request.query.limit, pageToken: request.query.page_token });
      return listBody('flow_definitions', page);
    },
  );

  app.get(
    '/flow_definitions/:id',
    { config: { tenancy: 'resource', scope: 'flow_definition.read' }, schema: { tags, summary: 'Read a flow definition', params: Type.Object({ id: Id() }), response: { 200: FlowDefinitionSchema } } },
    async (request) => definitions.get(scopedProject(principalOf(request)), request.params.id),
  );

  app.put(
    '/flow_definitions/:id',
    {
      config: { tenancy: 'resource', scope: 'flow_definition.write', emits: ['flow_definition.updated'] },
      schema: { tags, summary: 'Replace a flow definition (status kept when omitted)', params: Type.Object({ id: Id() }), body: Body, response: { 200: FlowDefinitionSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const current = await definitions.get(scopedProject(principal), request.params.id);
      if (request.body.project_id !== undefined && request.body.project_id !== current.project_id) {
        throw new AppError('flowdef.not_found', 'The flow definition was not found.');
      }
      return definitions.replace(current.project_id, request.params.id, {
        schema_uri: request.body.schema_uri,
        flow_definition: request.body.flow_definition as FlowDefinitionDoc,
      }, actorRefOf(principal));
    },
  );

  app.delete(
    '/flow_definitions/:id',
    { config: { tenancy: 'resource', scope: 'flow_definition.delete', emits: ['flow_definition.deleted'] }, schema: { tags, summary: 'Delete a flow definition', params: Type.Object({ id: Id() }), response: { 204: NoContent } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const current = await definitions.get(scopedProject(principal), request.params.id);
      await definitions.remove(current.project_id, request.params.id, actorRefOf(principal));
      return reply.status(204).send(null);
    },
  );
}
