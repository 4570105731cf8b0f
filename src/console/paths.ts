import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal } from './api.js';
import { ID_PATTERN } from './kit.js';

/** A provider id as the API's path schemas take it (src/sso/routes.ts, src/saml/routes.ts): a slug, so ID_PATTERN (no hyphen) would refuse real ids. */
export const PROVIDER_ID = /^[a-z][a-z0-9-]{0,63}$/;

/** A path parameter the API could know; anything else is the 404 of a page that does not exist, before any call. */
export function pathParam(request: FastifyRequest, name: string, pattern: RegExp = ID_PATTERN): string {
  const value = (request.params as Record<string, unknown>)[name];
  if (typeof value !== 'string' || !pattern.test(value)) throw new ApiRefusal({ status: 404, body: {} });
  return value;
}

/** Several id-shaped path parameters at once. */
export const pathIds = (request: FastifyRequest, ...names: string[]): string[] => names.map((name) => pathParam(request, name));

/** After a successful write: back to a page (PRG), never cached. */
export const afterWrite = (reply: FastifyReply, location: string) => reply.header('cache-control', 'no-store').redirect(location, 303);

/** The non-empty lines of a textarea. */
export const linesOf = (value: string | null | undefined) => (value ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);

/** `property=name` lines (claim and attribute mappings); a line without `=` maps to an empty name, which the API refuses at its path. */
export function pairsOf(text: string | null): Record<string, string> | undefined {
  const lines = linesOf(text);
  if (!lines.length) return undefined;
  return Object.fromEntries(lines.map((line) => (line.includes('=') ? [line.slice(0, line.indexOf('=')).trim(), line.slice(line.indexOf('=') + 1).trim()] : [line, ''])));
}
