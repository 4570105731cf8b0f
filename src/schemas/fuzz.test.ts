import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/helpers/app.js';

/** Keyword-shaped noise reaches deeper into Ajv than arbitrary JSON does. */
const KEYWORDS = [
  'type', 'properties', 'required', 'format', 'pattern', 'minLength', 'maxLength', 'items', 'enum', 'const', '$ref', '$id',
  '$defs', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties',
  'x-unique', 'x-claim', 'x-audit', 'x-auth-methods', 'kind', 'objectType', 'dependentRequired', 'minimum', 'multipleOf',
];
const keywordValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('object', 'string', 'integer', 'email', 'project', 'team', 'email', '#/$defs/a', '#', '(', 'uri'),
  // Members shadowing Object.prototype's methods: the meta-schema's uniqueItems once threw on them.
  fc.constantFrom<unknown>([{ valueOf: 1 }, { valueOf: 1 }], { toString: 0 }),
);
const schemaLike = fc.letrec((tie) => ({
  node: fc.dictionary(fc.constantFrom(...KEYWORDS), fc.oneof({ depthSize: 'small' }, keywordValue, tie('node'), fc.dictionary(fc.string({ maxLength: 8 }), tie('node'), { maxKeys: 3 })), { maxKeys: 6 }),
})).node;

/** Mostly valid user schemas, so that the user side is exercised against many shapes too. */
const plausible = fc.record({
  type: fc.constant('object'),
  properties: fc.dictionary(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.record(
      {
        type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array'),
        format: fc.constantFrom('email', 'uri', 'date', 'uuid', 'hostname'),
        'x-unique': fc.constantFrom('project', 'team', 'unspecified'),
        'x-claim': fc.constantFrom('email', 'name', 'given_name', 'picture'),
        'x-audit': fc.boolean(),
        minLength: fc.nat(4),
      },
      { requiredKeys: ['type'] },
    ),
    { maxKeys: 4 },
  ),
});

/** Arbitrary attributes, and members that shadow Object.prototype's methods (they once broke Ajv's const). */
const attributesLike = fc.oneof(
  { weight: 4, arbitrary: fc.object({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom<Record<string, unknown>>({ valueOf: false }, { toString: 1 }, { a: [{ valueOf: 0 }, { valueOf: 0 }] }) },
);

describe('no input makes schemas or users answer 500', () => {
  let t: TestApp;
  let project: { id: string; project_secret: string };
  let defaultSchemaId: string;

  beforeAll(async () => {
    t = await createTestApp();
    project = await t.createProject();
    defaultSchemaId = (await t.container.schemas.defaultFor(project.id))!.id;
  });
  afterAll(async () => t.close());

  it('POST /schemas with keyword-shaped and arbitrary documents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(plausible, schemaLike.map((node) => ({ type: 'object', ...node })), schemaLike, fc.jsonValue({ maxDepth: 4 })), attributesLike, async (body, attributes) => {
        const response = await t.app.inject({
          method: 'POST',
          url: `/schemas?project_id=${project.id}`,
          headers: { ...bearer(project.project_secret), 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect(response.statusCode, `${response.body} for ${JSON.stringify(body)}`).toBeLessThan(500);
        if (response.statusCode === 201) {
          // Whatever was accepted must also be usable for users without a 500.
          const user = await t.app.inject({
            method: 'POST',
            url: `/users?project_id=${project.id}`,
            headers: bearer(project.project_secret),
            payload: { schema: response.json().id, attributes },
          });
          expect(user.statusCode).toBeLessThan(500);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a user whose attributes cannot be compared with a const or enum is refused, and nothing is stored', async () => {
    // Found by the property above (seed 1824873196): fast-deep-equal calls a member named valueOf.
    // A project of its own, so that the count of users below is exact.
    const own = await t.createProject();
    const schema = await t.app.inject({
      method: 'POST',
      url: `/schemas?project_id=${own.id}`,
      headers: bearer(own.project_secret),
      payload: { type: 'object', properties: { tags: { enum: ['a', { b: 1 }] } }, const: {} },
    });
    expect(schema.statusCode).toBe(201);
    for (const attributes of [{ valueOf: false }, { toString: 1 }, { tags: { valueOf: 'x' } }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/users?project_id=${own.id}`,
        headers: bearer(own.project_secret),
        payload: { schema: schema.json().id, attributes },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().code).toBe('user.invalid');
      expect(response.json().details.errors).toContainEqual(expect.objectContaining({ keyword: 'comparable' }));
    }
    const after = await t.app.inject({ method: 'GET', url: `/users?project_id=${own.id}`, headers: bearer(own.project_secret) });
    expect(after.json().users).toEqual([]);
  });

  it('a schema document whose values cannot be compared is refused as invalid', async () => {
    for (const document of [{ type: 'object', properties: { a: { type: [{ toString: 1 }, { toString: 1 }] } } }, { type: 'object', properties: { a: { type: 'array', items: { type: [{ valueOf: 0 }, { valueOf: 0 }] } } } }]) {
      const response = await t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers: bearer(project.project_secret), payload: document });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code: 'sch.invalid', details: { errors: [{ path: 'schema' }] } });
    }
  });

  it('POST /users with arbitrary attributes and schema references', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(defaultSchemaId), fc.string({ maxLength: 40 }), fc.webUrl()), fc.object({ maxDepth: 3 }), async (schema, attributes) => {
        const response = await t.app.inject({
          method: 'POST',
          url: `/users?project_id=${project.id}`,
          headers: bearer(project.project_secret),
          payload: { schema, attributes },
        });
        expect(response.statusCode, response.body).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });
});
