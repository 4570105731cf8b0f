import type { FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.js';

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The path (`body/fields/name`) of the first string or property name in `value` that holds a
 * lone UTF-16 surrogate, or undefined. Iterative: a hostile body may nest far deeper than the
 * call stack.
 */
export function loneSurrogatePath(value: unknown, root: string): string | undefined {
  const pending: Array<[unknown, string]> = [[value, root]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (LONE_SURROGATE.test(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([item, `${path}/${index}`]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (LONE_SURROGATE.test(key)) return `${path}/${key.replace(LONE_SURROGATE, '\ufffd')}`;
        pending.push([item, `${path}/${key}`]);
      }
    }
  }
  return undefined;
}

/**
 * The one place that refuses text which is not well-formed Unicode (DESIGN §4.6a): a lone
 * surrogate (`"\ud800"`) cannot be encoded as UTF-8, so PostgreSQL would store it replaced or
 * refuse it late. Every body and query string is checked before validation, so no route ever
 * sees one: 400 `req.invalid` with the path.
 */
export function registerWellFormedText(app: FastifyInstance): void {
  // Callback style (a throw is the hook's error): no promise per request.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [part, value] of [['body', request.body], ['querystring', request.query]] as const) {
      const path = loneSurrogatePath(value, part);
      if (path === undefined) continue;
      throw new AppError('req.invalid', 'The request contains text that is not valid Unicode.', {
        errors: [{ path, message: 'contains a lone UTF-16 surrogate' }],
      });
    }
    done();
  });
}
