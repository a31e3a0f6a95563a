// The server's own route table, collected by Fastify's onRoute hook while buildApp registers the
// routes (BuildAppOptions.onRoute): the authorization matrix and the fuzzer cover exactly what the
// server serves, so a new route cannot be left out by accident.
import type { onRouteHookHandler } from 'fastify';
import type { RouteAccess } from '../../src/domain/access';
import type { ZodType } from 'zod';

/** The parts of a request a route validates with zod (fastify-type-provider-zod). */
export interface RouteSchemas {
  readonly params?: ZodType;
  readonly querystring?: ZodType;
  readonly body?: ZodType;
  readonly headers?: ZodType;
}

export interface RegisteredRoute {
  /** One method (a route registered for several is listed once per method). */
  readonly method: string;
  /** The route pattern, e.g. /service-dart/secure/api/v1/loans/:id/details. */
  readonly url: string;
  readonly schemas: RouteSchemas;
  /** The body's media types (OpenAPI `consumes`), when the route names them. */
  readonly consumes: readonly string[];
  /** GET, HEAD /x -> 'GET /x', 'HEAD /x'. */
  readonly key: string;
  /**
   * Who may call it, as the route declares (`config.access`); read once the app is ready, as a
   * plugin may declare it for a third party's routes after this table saw them.
   */
  readonly access: RouteAccess | undefined;
}

const isZod = (value: unknown): value is ZodType => typeof value === 'object' && value !== null && '_zod' in value;

export interface RouteTable {
  readonly onRoute: onRouteHookHandler;
  /** Filled while the app is built; complete once `app.ready()` resolved. */
  readonly routes: RegisteredRoute[];
}

export function routeTable(): RouteTable {
  const routes: RegisteredRoute[] = [];
  const onRoute: onRouteHookHandler = (route) => {
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const schemas: RouteSchemas = Object.fromEntries(
      (['params', 'querystring', 'body', 'headers'] as const).flatMap((part) => (isZod(schema[part]) ? [[part, schema[part]]] : [])),
    );
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const upper = String(method).toUpperCase();
      const consumes = Array.isArray(schema.consumes) ? schema.consumes.map(String) : [];
      routes.push({
        method: upper,
        url: route.url,
        schemas,
        consumes,
        key: `${upper} ${route.url}`,
        get access() {
          return route.config?.access;
        },
      });
    }
  };
  return { onRoute, routes };
}
