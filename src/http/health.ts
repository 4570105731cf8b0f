import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../core/errors.js';
import type { Engine } from '../db/engine.js';

export function healthRoutes(app: FastifyInstance, engine: Engine): void {
  const Status = Type.Object({ status: Type.String() });
  app.get('/healthz', { config: { tenancy: 'public' }, schema: { tags: ['health'], summary: 'The process is alive', response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get(
    '/readyz',
    { config: { tenancy: 'public' }, schema: { tags: ['health'], summary: 'The database answers', response: { 200: Status } } },
    async () => {
      try {
        await engine.ping();
      } catch {
        throw new AppError('unavailable', 'The database is not reachable.', {}, { 'retry-after': '5' });
      }
      return { status: 'ready' };
    },
  );
}
