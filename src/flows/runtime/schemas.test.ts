import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { flowDefinitionDocSchema } from '../definitions/routes.js';
import { registerMethod } from '../methods/registry.js';
import { composeProperties, stepSchema, submitBodySchema } from './schemas.js';

/*
 * Seam v2 step 8: the engine's shapes are composed from its own properties and what the methods
 * declare (`stepExtensions`, `submitMembers`, `stepProperties`), in the order clients have seen.
 */
const keysOf = (schema: unknown) => Object.keys((schema as { properties: Record<string, unknown> }).properties);
const stepPropertiesOf = (schema: unknown) => keysOf((schema as { properties: { steps: { items: unknown } } }).properties.steps.items);

describe('the API shapes the methods extend', () => {
  it('keeps the built-in order of a step, a submit body and a definition step', () => {
    expect(keysOf(stepSchema())).toEqual(['name', 'type', 'behavior', 'texts', 'fields', 'actions', 'gates', 'challenge', 'error', 'warning', 'totp', 'recovery_codes', 'credentials', 'sso_providers']);
    expect(keysOf(submitBodySchema())).toEqual(['action', 'fields', 'captcha', 'challenge_response', 'sso_provider_id', 'return_to']);
    expect(stepPropertiesOf(flowDefinitionDocSchema())).toEqual(['name', 'fields', 'actions', 'transitions', 'on_success', 'complete', 'gates', 'texts', 'sso_providers']);
  });

  it('refuses a property declared twice', () => {
    expect(() => composeProperties([['action', Type.String()]], [['action', Type.Number()]], 'submit body')).toThrow(/"action" is declared twice/);
  });

  it('adds a registered method\'s declarations: placed, or last', () => {
    registerMethod({
      name: 'shape_probe',
      needsSchemaKey: false,
      stepExtensions: { probe_early: { at: 75, schema: Type.Optional(Type.String()) }, probe_late: { schema: Type.Optional(Type.String()) } },
      submitMembers: { probe_answer: Type.Optional(Type.String()) },
      stepProperties: { probe_option: Type.Optional(Type.Boolean()) },
    });
    const step = keysOf(stepSchema());
    expect(step.slice(6, 9)).toEqual(['gates', 'probe_early', 'challenge']);
    expect(step.at(-1)).toBe('probe_late');
    expect(keysOf(submitBodySchema()).at(-1)).toBe('probe_answer');
    expect(stepPropertiesOf(flowDefinitionDocSchema()).at(-1)).toBe('probe_option');
  });
});
