import { knownErrorCodes } from '../core/errors.js';
import { Type, type TArray, type TOptional, type TSchema, type TString } from 'typebox';

/** Shapes shared by many routes; each domain defines its own resources next to its routes. */
export const ErrorBody = Type.Object(
  {
    // Every code the service can answer, so that generated clients type errors by code (src/core/errors.ts).
    code: Type.Unsafe<string>({ type: 'string', enum: Object.keys(knownErrorCodes()).sort() }),
    message: Type.String(),
    details: Type.Object({}, { additionalProperties: true }),
  },
  { description: 'Every error: a stable code, a human message and structured details.' },
);

export const Timestamp = Type.String({ format: 'date-time' });

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  page_token: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
};

export const Id = (description?: string) => Type.String({ minLength: 1, maxLength: 64, ...(description ? { description } : {}) });

export const ProjectIdQuery = Type.Object({ project_id: Id('The project') }, { additionalProperties: false });

/** The shape of every list response: `{<key>: [...], next_page_token?}`. */
export function listOf<K extends string, T extends TSchema>(key: K, item: T) {
  const properties = { [key]: Type.Array(item), next_page_token: Type.Optional(Type.String()) } as { [P in K]: TArray<T> } & {
    next_page_token: TOptional<TString>;
  };
  return Type.Object(properties);
}

/** Builds a list response from a page, leaving `next_page_token` out on the last page. */
export function listBody<K extends string, T>(key: K, page: { items: T[]; nextPageToken?: string }) {
  const body = { [key]: page.items } as { [P in K]: T[] } & { next_page_token?: string };
  if (page.nextPageToken) body.next_page_token = page.nextPageToken;
  return body;
}

export const NoContent = Type.Null({ description: 'No content' });
