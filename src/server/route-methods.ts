// Which methods the server answers on a path, for a 405 with Allow (RFC 9110 section 15.5.6)
// instead of a 404 that says the resource does not exist. Fastify's router answers a method it has
// no route for as not found; the not-found handler asks this table whether another method has one.

/** A Fastify route pattern as a regular expression: ':param' one segment, '*' the rest of the path. */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export class RouteMethods {
  private readonly routes: { readonly pattern: RegExp; readonly methods: readonly string[] }[] = [];

  /** Records a route (Fastify's onRoute hook gives every one, HEAD routes included). */
  add(method: string | readonly string[], url: string): void {
    this.routes.push({ pattern: patternOf(url), methods: typeof method === 'string' ? [method] : method });
  }

  /** The methods some route answers on `pathname` (no query), sorted; empty when none does. */
  allowed(pathname: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(pathname)) route.methods.forEach((method) => methods.add(method));
    return [...methods].sort();
  }
}
