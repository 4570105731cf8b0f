import pg from 'pg';

/** Every statement sent to the database (either engine) since `watchStatements`, so a request's cost can be counted. */
export const sent: string[] = [];

let watching = false;

/** Starts recording the text of every statement PGlite or `pg` sends, into `sent`. */
export async function watchStatements(): Promise<void> {
  if (watching) return;
  watching = true;
  const { PGlite } = await import('@electric-sql/pglite');
  let proto = PGlite.prototype as unknown as Record<string, unknown>;
  while (!Object.getOwnPropertyNames(proto).includes('query')) proto = Object.getPrototypeOf(proto) as Record<string, unknown>;
  const pgliteQuery = proto.query as (this: unknown, text: string, ...rest: unknown[]) => unknown;
  proto.query = function (this: unknown, text: string, ...rest: unknown[]) {
    sent.push(text);
    return pgliteQuery.call(this, text, ...rest);
  };
  const clientQuery = pg.Client.prototype.query as (this: unknown, ...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as Record<string, unknown>).query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    sent.push(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first));
    return clientQuery.apply(this, args);
  };
}

/** Runs `fn` and returns the statements it sent, whitespace folded. */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  sent.length = 0;
  const result = await fn();
  return { result, statements: sent.map((text) => text.replace(/\s+/g, ' ')) };
}
