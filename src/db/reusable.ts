import { CompiledQuery, type QueryExecutorProvider } from 'kysely';

/** Stands for one named value while a reusable statement is built (see `reusableStatement`). */
class Slot {
  constructor(readonly name: string) {}
}

/** A query builder (`compile()`) or a `sql` template (`compile(db)`). */
interface Buildable<Row> {
  compile(executorProvider: QueryExecutorProvider): CompiledQuery<Row>;
}

interface Shape {
  sql: string;
  /** For each parameter of the compiled text: the argument it takes. */
  slots: string[];
}

/**
 * A statement whose SQL text is the same whatever its values, built with Kysely and compiled once;
 * every later call only fills the parameters. Building and compiling a composed statement costs
 * tens of microseconds of CPU per request (the exchange's consuming statement about 30 µs for its
 * source alone), which a hot path pays again and again for the same text.
 *
 * `build` is called once, with a stand-in for each argument in place of its value, so it must use
 * its arguments only as values handed to Kysely (`.where(col, '=', a.id)`, `sql\`${a.now}\``):
 * never branch on them, compute with them or format them. A stand-in that an expression consumed
 * (`a.now.getTime()`, `String(a.id)`) throws or leaves its argument unused, and an unused argument
 * or a compiled value that is no stand-in fails the first call: the shape could depend on values.
 * Every argument key must be present on every call (pass `null`, not a missing key).
 */
export function reusableStatement<Args extends object, Row>(db: QueryExecutorProvider, build: (args: Args) => Buildable<Row>): (args: Args) => CompiledQuery<Row> {
  let shape: Shape | undefined;
  return (args) => {
    shape ??= shapeOf(db, build, Object.keys(args));
    const parameters = shape.slots.map((name) => (args as Record<string, unknown>)[name]);
    return CompiledQuery.raw(shape.sql, parameters) as CompiledQuery<Row>;
  };
}

function shapeOf<Args extends object, Row>(db: QueryExecutorProvider, build: (args: Args) => Buildable<Row>, names: string[]): Shape {
  const standIns = Object.fromEntries(names.map((name) => [name, new Slot(name)])) as unknown as Args;
  const compiled = build(standIns).compile(db);
  const slots = compiled.parameters.map((parameter, index) => {
    if (!(parameter instanceof Slot)) throw new Error(`reusable statement: parameter $${index + 1} is not an argument (a value computed while building?)`);
    return parameter.name;
  });
  const unused = names.filter((name) => !slots.includes(name));
  if (unused.length > 0) throw new Error(`reusable statement: argument(s) ${unused.join(', ')} never reach the statement`);
  return { sql: compiled.sql, slots };
}
