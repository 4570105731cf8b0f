import FindMyWay from 'find-my-way';

/** The router options of the app (`routerOptions` in src/app.ts); the method index matches with the same. */
export const ROUTER_OPTIONS = { maxParamLength: 200 } as const;

/** Order of the `Allow` header (the order people read them in), unknown methods after these. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function byMethodOrder(a: string, b: string): number {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

const unused = () => {};

/**
 * Which methods a concrete path has routes for, so that a known path asked with another method
 * answers 405 instead of 404. Every route is also registered (Fastify's `onRoute`) in a second
 * find-my-way router with the app's router options, so the match is the router's own (decoding,
 * parameters, wildcards, regular expressions, `maxParamLength`); a lookup asks it once per method
 * that has any route.
 */
export class MethodIndex {
  private readonly router = FindMyWay(ROUTER_OPTIONS);
  private readonly methods = new Set<string>();

  add(url: string, method: string): void {
    try {
      this.router.on(method as FindMyWay.HTTPMethod, url, unused);
      this.methods.add(method);
    } catch {
      // A route the router refuses (Fastify would have refused it first) has no methods to offer.
    }
  }

  /** The methods with a route for this request URL (query ignored), in `Allow` order; empty when none. */
  allowed(url: string): string[] {
    const end = url.search(/[?#]/);
    const path = end === -1 ? url : url.slice(0, end);
    if (!path.startsWith('/')) return [];
    return [...this.methods].filter((method) => this.router.find(method as FindMyWay.HTTPMethod, path) !== null).sort(byMethodOrder);
  }
}
