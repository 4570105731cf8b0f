import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRefusal } from './api.js';
import { ID_PATTERN } from './kit.js';

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
