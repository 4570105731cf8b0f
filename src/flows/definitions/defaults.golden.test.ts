import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultUserSchema } from '../../schemas/default-schema.js';
import { defaultDefinitions } from './defaults.js';
import { schemaView } from './schema-view.js';

/**
 * The default definitions are stored and returned as JSON, so moving their parts into the methods
 * (seam v2, "Default definitions") must not change one byte of them, key and array order included:
 * the output of every schema below is held against the files under `__golden__/`, written by the
 * code before the move. Regenerate only for an intended change (`npx vitest run <this file> -u`)
 * and read the diff.
 */

/** The `x-auth-methods` keys that shape the defaults. */
const TOGGLED = ['password', 'passkey', 'sso', 'otp', 'totp', 'recovery_code'] as const;

type Doc = Record<string, unknown>;

/** User schemas of different shapes: the identifier the steps ask for and the register fields differ. */
const SHAPES: Record<string, () => Doc> = {
  default: () => defaultUserSchema(),
  // A username identifies; `email` is not unique; required fields beside it join registration.
  username: () => ({
    type: 'object',
    required: ['username', 'age', 'name'],
    properties: {
      username: { type: 'string', maxLength: 40, 'x-unique': 'project' },
      email: { type: 'string', format: 'email' },
      name: { type: 'string', maxLength: 100 },
      age: { type: 'integer' },
    },
  }),
  // No identifier at all: the steps fall back to `email`.
  'no-identifier': () => ({ type: 'object', properties: { nickname: { type: 'string' } } }),
  // Two identifiers, the phone first: `email` is still the one asked for; the required phone is registered.
  'phone-and-email': () => ({
    type: 'object',
    required: ['phone'],
    properties: {
      phone: { type: 'string', 'x-unique': 'project' },
      email: { type: 'string', format: 'email', 'x-unique': 'team' },
      name: { type: 'object', required: ['given'], properties: { given: { type: 'string' }, family: { type: 'string' } } },
    },
  }),
};

function withMethods(document: Doc, enabled: ReadonlySet<string>, extra: Record<string, boolean> = {}): Doc {
  const methods = Object.fromEntries(TOGGLED.map((method) => [method, { enabled: enabled.has(method) }]));
  for (const [method, on] of Object.entries(extra)) methods[method] = { enabled: on };
  return { ...document, 'x-auth-methods': methods };
}

const json = (shape: string, document: Doc) => JSON.stringify(defaultDefinitions(schemaView(`sch_${shape}`, `https://schemas.example/${shape}.json`, document)));
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

describe('the default definitions (golden: identical output before and after the move into the methods)', () => {
  it('are byte for byte the same for the default schema, every method on and every method off', async () => {
    const all = new Set<string>(TOGGLED);
    const named = {
      'default schema as shipped': JSON.parse(json('default', defaultUserSchema())),
      'default schema, every method on': JSON.parse(json('default', withMethods(defaultUserSchema(), all, { magic_link: true }))),
      'default schema, every method off': JSON.parse(json('default', withMethods(defaultUserSchema(), new Set()))),
    };
    // The readable copy: the exact bytes are compared below and in the matrix.
    await expect(`${JSON.stringify(named, null, 1)}\n`).toMatchFileSnapshot('./__golden__/default-definitions.named.json');
    expect(json('default', defaultUserSchema())).toBe(JSON.stringify(named['default schema as shipped']));
  });

  it('are byte for byte the same for every combination of methods, on schemas of every shape', async () => {
    const matrix: Record<string, string> = {};
    for (const [shape, document] of Object.entries(SHAPES)) {
      for (let mask = 0; mask < 1 << TOGGLED.length; mask++) {
        const enabled = new Set(TOGGLED.filter((_, bit) => (mask & (1 << bit)) !== 0));
        matrix[`${shape}: ${[...enabled].join('+') || '(none)'}`] = digest(json(shape, withMethods(document(), enabled)));
      }
      // magic_link shapes nothing today: held too, so that a fragment that starts to read it shows.
      matrix[`${shape}: every method and magic_link`] = digest(json(shape, withMethods(document(), new Set(TOGGLED), { magic_link: true })));
    }
    expect(Object.keys(matrix)).toHaveLength(4 * 65);
    await expect(`${JSON.stringify(matrix, null, 1)}\n`).toMatchFileSnapshot('./__golden__/default-definitions.matrix.json');
  });
});
