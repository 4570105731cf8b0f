import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, errorBody, type TestApp } from '../../../test/helpers/app.js';
import { SchemaCompiler } from '../../schemas/keywords.js';
import { registerMethod, schemaKeys } from './registry.js';

/**
 * Seam v2 step 9: the `x-auth-methods` keys a user schema may hold come from the method registry
 * (each method's name where it needs a key, its options, its extra keys), not from a second list.
 * A method registered before the app is built is a key like a built-in one.
 */
registerMethod({ name: 'fingerprint', needsSchemaKey: true, schemaKey: { options: { rounds: { type: 'integer', minimum: 1 } } } });
registerMethod({ name: 'always_on', needsSchemaKey: false });

/** The keys schemas accepted when they were a list of their own (`AUTH_METHODS`, before step 9). */
const BUILT_IN_KEYS = ['password', 'passkey', 'magic_link', 'sso', 'otp', 'totp', 'recovery_code'];

const schema = (methods: Record<string, unknown>) => ({ type: 'object', properties: { email: { type: 'string' } }, 'x-auth-methods': methods });

describe('x-auth-methods keys from the method registry', () => {
  it('are the built-in keys of old, plus a registered method that needs one, and nothing else', () => {
    const names = schemaKeys().map((key) => key.name);
    // `saml` joined the built-in methods with issue 35 (DESIGN §4.20).
    expect([...names].sort()).toEqual([...BUILT_IN_KEYS, 'saml', 'fingerprint'].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('keep each method\'s options: password\'s minLength stays 8..128', () => {
    const compiler = new SchemaCompiler(schemaKeys());
    expect(compiler.compile(schema({ password: { enabled: true, minLength: 8 } })).validate).toBeDefined();
    expect(compiler.compile(schema({ password: { enabled: true, minLength: 128 } })).validate).toBeDefined();
    expect(compiler.compile(schema({ password: { enabled: true, minLength: 7 } })).validate).toBeUndefined();
    expect(compiler.compile(schema({ password: { enabled: true, minLength: 129 } })).validate).toBeUndefined();
    // An option is the method's own: another key does not take it.
    expect(compiler.compile(schema({ passkey: { enabled: true, minLength: 8 } })).validate).toBeUndefined();
    expect(compiler.compile(schema({ magic_link: { enabled: false }, otp: { enabled: true } })).validate).toBeDefined();
    for (const name of ['settings', 'recovery_by_mail', 'always_on', 'carrier_pigeon']) {
      expect(compiler.compile(schema({ [name]: { enabled: true } })).validate, name).toBeUndefined();
    }
  });

  it('refuse a key declared twice (a wiring mistake)', () => {
    expect(() => new SchemaCompiler([{ name: 'otp' }, { name: 'otp' }])).toThrow(/"otp"/);
  });

  describe('in the running app', () => {
    let t: TestApp;
    let project: { id: string; project_secret: string };
    const post = (document: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/schemas?project_id=${project.id}`, headers: bearer(project.project_secret), payload: document });

    beforeAll(async () => {
      t = await createTestApp();
      project = await t.createProject();
    });
    afterAll(async () => t.close());

    it('accepts a registered method\'s key with its options, and checks them', async () => {
      const accepted = await post(schema({ fingerprint: { enabled: true, rounds: 3 }, password: { enabled: true } }));
      expect(accepted.statusCode, accepted.body).toBe(201);
      const stored = await t.container.schemas.get(project.id, accepted.json().id);
      expect(stored.model.authMethods).toEqual({ fingerprint: true, password: true });
      for (const methods of [{ fingerprint: { enabled: true, rounds: 0 } }, { always_on: { enabled: true } }]) {
        const refused = await post(schema(methods));
        expect(refused.statusCode, JSON.stringify(methods)).toBe(400);
        expect(errorBody(refused).code).toBe('sch.invalid');
      }
    });
  });
});
