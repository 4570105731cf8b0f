import { CompiledQuery, RawNode, sql, ValueNode, type Expression, type OperationNode, type QueryExecutorProvider, type RawBuilder } from 'kysely';

/** Stands for one named value while a reusable statement or part is built (see `reusablePart`). */
class Slot {
  constructor(readonly name: string) {}
}

/** A query builder (`compile()`) or a `sql` template (`compile(db)`). */
interface Buildable<Row> {
  compile(executorProvider: QueryExecutorProvider): CompiledQuery<Row>;
}

/** A part's SQL text, cut where its values and nested parts go: `texts[0] slot[0] texts[1] ... texts[n]`. */
interface Shape {
  texts: string[];
  /** For each cut: the argument that fills it. */
  slots: string[];
  /** For each cut: whether its argument is a nested part (else a value, sent as a parameter). */
  nested: boolean[];
  /** The whole text when nothing is nested: what a statement of this shape sends. */
  whole?: string;
  /** How many arguments each call passes (every one reaches the text). */
  arity: number;
}

/**
 * A piece of SQL compiled once with its values for one use: a statement, or a part of one that
 * another domain puts into its own (a CTE, a condition). Nested parts are filled in and all values
 * numbered when the statement is sent (`compiledStatement`), so composing parts builds no query.
 * Also an `Expression`, so a Kysely builder can take one (`.where(part)`, `sql\`${part}\``).
 */
export class SqlPart<T = unknown> implements Expression<T> {
  /** @internal */
  constructor(
    readonly shape: Shape,
    readonly args: readonly unknown[],
  ) {}

  get expressionType(): T | undefined {
    return undefined;
  }

  toOperationNode(): OperationNode {
    return RawNode.create(
      this.shape.texts,
      this.args.map((arg, i) => (this.shape.nested[i] ? (arg as SqlPart).toOperationNode() : ValueNode.create(arg))),
    );
  }
}

/** A nested part is marked in the compiled text like this while its shape is cut. */
const MARK = '\u0001';
const CUTS = new RegExp(`\\$(\\d+)|${MARK}([^${MARK}]+)${MARK}`, 'g');

/**
 * A part whose SQL text is the same whatever its values, built with Kysely and compiled once;
 * every later call only records the values. Building and compiling a composed statement costs
 * tens of microseconds of CPU per request (the exchange's consuming statement about 30 µs for its
 * source alone), which a hot path pays again and again for the same text.
 *
 * `build` is called once, with a stand-in for each argument in place of its value, so it must use
 * its arguments only as values handed to Kysely (`.where(col, '=', a.id)`, `sql\`${a.now}\``):
 * never branch on them, compute with them or format them. A stand-in that an expression consumed
 * (`a.now.getTime()`, `String(a.id)`) throws or leaves its argument unused, and an unused argument
 * or a compiled value that is no stand-in fails the first call: the shape could depend on values.
 * An argument that is an `SqlPart` on the first call is nested: it must be one on every call, and
 * its own text goes where the builder put it (a condition, a CTE), whatever that part's shape.
 * Every call passes the same keys (pass `null`, not a missing key); another number of them throws.
 */
export function reusablePart<Args extends object, T = unknown>(db: QueryExecutorProvider, build: (args: Args) => Buildable<T>): (args: Args) => SqlPart<T> {
  let shape: Shape | undefined;
  return (args) => {
    shape ??= shapeOf(db, build, args);
    const values = args as Record<string, unknown>;
    const { slots, nested } = shape;
    // A key missing or added since the first call would go as NULL or be dropped without a word.
    if (Object.keys(values).length !== shape.arity) throw new Error(`reusable part: ${Object.keys(values).length} arguments where the first call passed ${shape.arity}`);
    const filled = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const value = values[slots[i]!];
      if (value instanceof SqlPart !== nested[i]) throw new Error(`reusable part: argument ${slots[i]} must ${nested[i] ? '' : 'not '}be an SqlPart, as on the first call`);
      filled[i] = value;
    }
    return new SqlPart<T>(shape, filled);
  };
}

/** A statement compiled once (`reusablePart` without nested parts, ready to run). */
export function reusableStatement<Args extends object, Row>(db: QueryExecutorProvider, build: (args: Args) => Buildable<Row>): (args: Args) => CompiledQuery<Row> {
  const part = reusablePart<Args, Row>(db, build);
  return (args) => compiledStatement<Row>(part(args));
}

/** SQL text with no values and no identifiers to quote (`true`, an empty piece): needs no compiling. */
export function constantPart<T = unknown>(text: string): SqlPart<T> {
  if (/\$\d|\u0001/.test(text)) throw new Error('constant part: the text holds a parameter or a mark');
  return new SqlPart<T>({ texts: [text], slots: [], nested: [], whole: text, arity: 0 }, []);
}

/** A part with no values, compiled once (a fixed condition naming a table). */
export function fixedPart<T = unknown>(db: QueryExecutorProvider, text: RawBuilder<T>): SqlPart<T> {
  return reusablePart<object, T>(db, () => text)({});
}

/** The statement `part` stands for, its nested parts filled in and its values numbered `$1...`. */
export function compiledStatement<Row>(part: SqlPart): CompiledQuery<Row> {
  const { whole } = part.shape;
  if (whole !== undefined) return CompiledQuery.raw(whole, part.args as unknown[]) as CompiledQuery<Row>;
  const parameters: unknown[] = [];
  return CompiledQuery.raw(textOf(part, parameters), parameters) as CompiledQuery<Row>;
}

function textOf(part: SqlPart, parameters: unknown[]): string {
  const { texts, nested } = part.shape;
  let text = texts[0]!;
  for (let i = 0; i < nested.length; i++) {
    const arg = part.args[i];
    if (nested[i]) text += textOf(arg as SqlPart, parameters);
    else text += `$${parameters.push(arg)}`;
    text += texts[i + 1]!;
  }
  return text;
}

function shapeOf<Args extends object>(db: QueryExecutorProvider, build: (args: Args) => Buildable<unknown>, args: Args): Shape {
  const names = Object.keys(args);
  const nestedNames = new Set(names.filter((name) => (args as Record<string, unknown>)[name] instanceof SqlPart));
  if (names.some((name) => name.includes(MARK))) throw new Error('reusable part: an argument name holds the nesting mark');
  const standIns = Object.fromEntries(names.map((name) => [name, nestedNames.has(name) ? sql.raw(`${MARK}${name}${MARK}`) : new Slot(name)])) as unknown as Args;
  const compiled = build(standIns).compile(db);
  const texts: string[] = [];
  const slots: string[] = [];
  const nested: boolean[] = [];
  let from = 0;
  let parameterCount = 0;
  for (const cut of compiled.sql.matchAll(CUTS)) {
    texts.push(compiled.sql.slice(from, cut.index));
    from = cut.index! + cut[0].length;
    if (cut[2] !== undefined) {
      slots.push(cut[2]);
      nested.push(true);
      continue;
    }
    const parameter = compiled.parameters[Number(cut[1]) - 1];
    // Kysely numbers its parameters once each, in order; anything else is not one of them.
    if (Number(cut[1]) !== ++parameterCount) throw new Error(`reusable part: $${cut[1]} is out of order (a literal "$" in the text?)`);
    if (!(parameter instanceof Slot)) throw new Error(`reusable part: parameter $${cut[1]} is not an argument (a value computed while building?)`);
    slots.push(parameter.name);
    nested.push(false);
  }
  texts.push(compiled.sql.slice(from));
  if (parameterCount !== compiled.parameters.length) throw new Error('reusable part: the text does not name every parameter');
  const unused = names.filter((name) => !slots.includes(name));
  if (unused.length > 0) throw new Error(`reusable part: argument(s) ${unused.join(', ')} never reach the statement`);
  const shape: Shape = { texts, slots, nested, arity: names.length };
  if (!nested.includes(true)) shape.whole = compiled.sql;
  return shape;
}
