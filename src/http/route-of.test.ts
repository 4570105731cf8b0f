import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { declareRouteView, routeOf } from './route-of.js';

describe('routeOf', () => {
  it("reads the route's options once per request: the same pattern and config on every read, another object per request", async () => {
    const app = Fastify();
    declareRouteView(app);
    const seen: unknown[] = [];
    app.addHook('onRequest', (request, _reply, done) => {
      seen.push(routeOf(request));
      done();
    });
    app.get('/things/:id', { config: { scope: 'things:read' } }, async (request) => {
      seen.push(routeOf(request));
      return { url: routeOf(request).url, scope: routeOf(request).config.scope, fresh: request.routeOptions !== routeOf(request) };
    });
    const first = await app.inject('/things/1');
    expect(first.json()).toEqual({ url: '/things/:id', scope: 'things:read', fresh: true });
    await app.inject('/things/2');
    expect(seen).toHaveLength(4);
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).toBe(seen[3]);
    expect(seen[0]).not.toBe(seen[2]);
  });

  it('answers on an app that did not declare the slot, and for an unmatched URL', async () => {
    const app = Fastify();
    let url: string | undefined = 'unset';
    app.addHook('onResponse', (request, _reply, done) => {
      url = routeOf(request).url;
      done();
    });
    app.get('/known', async () => ({}));
    await app.inject('/unknown');
    expect(url).toBeUndefined();
    await app.inject('/known');
    expect(url).toBe('/known');
  });
});
