import { Ajv, type Options } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { addFormats } from '../core/ajv-formats.js';
import { comparisonSafe } from '../core/comparable.js';

function buildAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * Bodies are validated strictly (no type coercion: "1" is not a number); query strings and path
 * parameters arrive as text and are coerced to the declared types.
 */
export function registerValidators(app: FastifyInstance): void {
  const strict = buildAjv({ coerceTypes: false });
  const coercing = buildAjv({ coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return comparisonSafe(ajv.compile(schema));
  });
}
