import { Type, type TSchema } from 'typebox';
import { stepExtensions, submitMembers } from '../methods/registry.js';
import type { SubmitInput } from '../view.js';

const Open = { additionalProperties: true } as const;
const Unknown = Type.Object({}, Open);

/*
 * The engine's own properties of a step, each at its place (`at`): a method's step extension
 * (`AuthMethod.stepExtensions`) names the place it goes to among them. Places are spaced so that
 * extensions fit between; answers serialize in this order, so a place once given stays.
 */
const STEP_PLACES: readonly { key: string; at: number; schema: TSchema }[] = [
  { key: 'name', at: 10, schema: Type.String() },
  { key: 'type', at: 20, schema: Type.String({ description: '`complete` marks a terminal step' }) },
  { key: 'behavior', at: 30, schema: Type.Optional(Type.String({ description: 'on a complete step: `redirect` or `show`' })) },
  { key: 'texts', at: 40, schema: Type.Object({ title_key: Type.String(), description_key: Type.String() }, Open) },
  { key: 'fields', at: 50, schema: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), text_key: Type.String(), required: Type.Boolean(), value: Type.Optional(Type.String({ description: 'a value the flow collected already, to prefill (never a secret)' })) }, Open)) },
  { key: 'actions', at: 60, schema: Type.Array(Type.Object({ name: Type.String(), kind: Type.String(), text_key: Type.String(), primary: Type.Boolean() }, Open)) },
  { key: 'gates', at: 70, schema: Type.Optional(Type.Object({ captcha: Type.Optional(Unknown) }, Open)) },
  { key: 'error', at: 90, schema: Type.Optional(Type.String({ description: 'a text key: something that happened between requests failed' })) },
  { key: 'warning', at: 100, schema: Type.Optional(Type.String({ description: 'a text key the user should act on' })) },
];

/** `base` then `extra` as one object of properties; a key declared twice is a registration mistake. */
export function composeProperties(base: readonly [string, TSchema][], extra: readonly [string, TSchema][], what: string): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const [key, schema] of [...base, ...extra]) {
    if (Object.hasOwn(properties, key)) throw new Error(`${what}: "${key}" is declared twice (by the engine or a sign-in method).`);
    properties[key] = schema;
  }
  return properties;
}

/**
 * The interface's Step as OpenAPI describes it (generated clients type it from here): the engine's
 * properties and the methods' extensions by place (a tie keeps registry order; no place: last).
 * Objects stay open: a custom definition's step may carry more, and the serializer passes it through.
 * Built when the routes are, so a method registered before the app is built is in it.
 */
export function stepSchema() {
  const placed = [...STEP_PLACES, ...stepExtensions().map(({ key, schema, at }) => ({ key, schema, at: at ?? Number.POSITIVE_INFINITY }))];
  const ordered = placed.map((entry, index) => ({ entry, index })).sort((a, b) => a.entry.at - b.entry.at || a.index - b.index);
  return Type.Object(composeProperties([], ordered.map(({ entry }) => [entry.key, entry.schema]), 'step'), Open);
}

/** What a submit carries: the engine's members, then those the methods' actions read (`submitMembers`). */
export function submitBodySchema() {
  const base: [string, TSchema][] = [
    ['action', Type.String({ minLength: 1, maxLength: 100 })],
    ['fields', Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), { maxProperties: 50 }))],
    ['captcha', Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Unknown]))],
  ];
  // The body as the route reads it: the methods' members are typed by their own `view.ts` (`SubmitInput`).
  return Type.Unsafe<Omit<SubmitInput, 'fields'> & { fields?: Record<string, unknown> }>(Type.Object(composeProperties(base, submitMembers(), 'submit body'), { additionalProperties: false }));
}
