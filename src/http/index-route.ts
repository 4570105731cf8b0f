import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { PACKAGE_NAME, VERSION } from '../core/version.js';

const IndexSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  links: Type.Object({
    openapi: Type.String({ description: 'The API description' }),
    login: Type.String({ description: 'The hosted sign-in page' }),
    docs: Type.String({ description: 'Where the documentation is' }),
  }),
});

/** `GET /`: what a person (or a probe) finds at the root: name, version, where to go next (DESIGN §4.17). */
export function indexRoute(app: FastifyInstance): void {
  const body = {
    name: PACKAGE_NAME,
    version: VERSION,
    links: { openapi: '/openapi.json', login: '/ui/login', docs: 'README.md and docs/ in the Gatehouse package' },
  };
  app.get('/', { config: { tenancy: 'public', cacheable: true }, schema: { tags: ['health'], summary: 'Name, version and links to the API description, the sign-in page and the docs', response: { 200: IndexSchema } } }, async () => body);
}
