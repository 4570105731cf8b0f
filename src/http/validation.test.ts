import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './error-handler.js';
import { registerValidators } from './validation.js';

describe('route validators', () => {
  const app = Fastify();
  registerErrorHandling(app);
  registerValidators(app);
  // Untyped items make Ajv compare whole objects, which a member named valueOf can break.
  app.post('/pairs', { schema: { body: { type: 'array', uniqueItems: true, maxItems: 4 } } }, async () => ({ ok: true }));
  afterAll(async () => app.close());

  it('answer a body that cannot be compared with 400 req.invalid, not 500', async () => {
    const response = await app.inject({ method: 'POST', url: '/pairs', payload: [{ valueOf: false }, { valueOf: false }] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'req.invalid', details: { errors: [{ path: 'body', keyword: 'comparable' }] } });
  });

  it('still validate and accept as Ajv does', async () => {
    expect((await app.inject({ method: 'POST', url: '/pairs', payload: [{ a: 1 }, { a: 1 }] })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/pairs', payload: [{ a: 1 }, { a: 2 }] })).statusCode).toBe(200);
  });
});
