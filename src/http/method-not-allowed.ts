/** Order of the `Allow` header (the order people read them in), unknown methods after these. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface Node {
  statics: Map<string, Node>;
  param?: Node;
  /** methods of the routes ending at this node */
  methods: Set<string>;
  /** methods of `*` routes below this node (they match any rest of the path) */
  rest: Set<string>;
}

const node = (): Node => ({ statics: new Map(), methods: new Set(), rest: new Set() });

function byMethodOrder(a: string, b: string): number {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * Which methods a concrete path has routes for, so that a known path asked with another method
 * answers 405 instead of 404. Filled once as routes are registered (Fastify's `onRoute`) into a
 * tree of path segments; a lookup walks only the segments of the one path asked, never the route
 * table. It mirrors find-my-way's matching for the route syntax used here: static segments
 * (compared percent-decoded, case-sensitive, no trailing-slash folding), `:name` parameters (one
 * whole segment, possibly empty) and a trailing `*`. A pattern with other syntax (regular
 * expressions, several parameters in one segment) is left out: its path then answers 404 for other
 * methods, as before.
 */
export class MethodIndex {
  private readonly root = node();

  add(url: string, method: string): void {
    const segments = url.split('/').slice(1);
    let at = this.root;
    for (const [i, segment] of segments.entries()) {
      if (segment === '*' && i === segments.length - 1) {
        at.rest.add(method);
        return;
      }
      if (segment.startsWith(':') && /^:\w+$/.test(segment)) {
        at = at.param ??= node();
      } else if (/[:*(]/.test(segment)) {
        return;
      } else {
        let next = at.statics.get(segment);
        if (!next) at.statics.set(segment, (next = node()));
        at = next;
      }
    }
    at.methods.add(method);
  }

  /** The methods with a route for this request URL (query ignored), in `Allow` order; empty when none. */
  allowed(url: string): string[] {
    const end = url.search(/[?#]/);
    const path = end === -1 ? url : url.slice(0, end);
    if (!path.startsWith('/')) return [];
    const segments = path.split('/').slice(1);
    const found = new Set<string>();
    this.collect(this.root, segments, 0, found);
    return [...found].sort(byMethodOrder);
  }

  // Backtracks like the router (a static segment first, then a parameter): the depth is bounded by
  // the longest route, and only nodes with both a static and a parameter child branch.
  private collect(at: Node, segments: string[], i: number, found: Set<string>): void {
    if (i === segments.length) {
      for (const method of at.methods) found.add(method);
      return;
    }
    for (const method of at.rest) found.add(method);
    const segment = decodeSegment(segments[i]);
    if (segment === undefined) return;
    const next = at.statics.get(segment);
    if (next) this.collect(next, segments, i + 1, found);
    if (at.param) this.collect(at.param, segments, i + 1, found);
  }
}

function decodeSegment(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
