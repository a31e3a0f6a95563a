// OpenAPI generated from the contract's zod schemas, served at /registry/api-docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import type { RouteAccess } from '../../domain/access';
import { BASE_PATH, PARTICIPANT_HEADER } from '../../domain/constants';
import { sessionCookieName } from '../identity/sessions';
import { isProductRoute } from './participant-header';

export const API_DOCS_PATH = `${BASE_PATH}/api-docs`;

/** The names of the document's security schemes (components.securitySchemes). */
export const SECURITY_SCHEMES = { session: 'session', participant: 'participant' } as const;

/**
 * Registered before the routes it documents: @fastify/swagger collects routes as they are added.
 * The document is built on the first request, so its own (hidden) routes may be added here.
 */
export interface OpenApiOptions {
  /** The session cookie is Secure, hence named with the __Host- prefix (sessionCookieName). */
  readonly cookieSecure: boolean;
}

type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** Route URL patterns (Fastify's `:param` form) to their name in the path registry, e.g. usersMe. */
const PATH_NAMES = new Map<string, string>(
  Object.entries(PATHS).flatMap(([name, path]) => (typeof path === 'string' ? [[path, name.replace(/Pattern$/, '')] as const] : [])),
);

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A generated client names each call by its operationId: the method and the path's name in
 * src/contract/paths.ts (getUsersMe, postSignIn); a route outside the registry gets its method and
 * path segments (getHealthz). A route may declare its own (schema.operationId).
 */
export function operationIdOf(method: string, url: string): string {
  const name =
    PATH_NAMES.get(url) ??
    url
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) =>
        capitalize(segment.replace(/^:/, 'by-').replace(/[^a-zA-Z0-9]+(.)?/g, (_match, next: string = '') => next.toUpperCase())),
      )
      .join('');
  return `${method.toLowerCase()}${capitalize(name)}`;
}

interface SecurityNeeds {
  /** 'required': 401 without a live session; 'optional': read when sent; 'none': not looked at. */
  readonly session: 'required' | 'optional' | 'none';
  /** The call acts for an organization: x-participant-id (else the caller's default one), or 403 'Invalid participant'. */
  readonly participant: boolean;
  /** A missing role is refused with 403 (one of PERMISSION_REFUSALS). */
  readonly role: boolean;
}

/** What the access hook asks of a route, from the route's declaration (plugins/access.ts). */
function accessOf(route: RouteOptions): SecurityNeeds {
  const access = (route.config as { access?: RouteAccess } | undefined)?.access ?? 'public';
  switch (access) {
    case 'public':
      return { session: 'none', participant: false, role: false };
    case 'session-if-any':
      return { session: 'optional', participant: false, role: false };
    case 'signed-in':
      return { session: 'required', participant: isProductRoute(route.url), role: false };
    case 'member':
      return { session: 'required', participant: true, role: false };
    case 'org-admin':
      return { session: 'required', participant: true, role: true };
    case 'registry-staff':
    case 'self-or-registry-staff':
    case 'organization-viewer':
      return { session: 'required', participant: false, role: true };
    case 'org-admin-or-registry-staff':
      // The organization is the path's (or the body's); a route that names none acts for the header's.
      return { session: 'required', participant: !route.url.includes(':participantId'), role: true };
  }
}

function securityOf(access: SecurityNeeds): SecurityRequirement[] {
  const session = { [SECURITY_SCHEMES.session]: [] };
  if (access.session === 'none') return [];
  // The header may be left out: the call then acts for the caller's default organization.
  const signedIn = access.participant ? [{ ...session, [SECURITY_SCHEMES.participant]: [] }, session] : [session];
  return access.session === 'optional' ? [...signedIn, {}] : signedIn;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type RouteSchema = FastifySchema & {
  hide?: boolean;
  operationId?: string;
  security?: unknown;
  consumes?: readonly string[];
  produces?: readonly string[];
};

/**
 * The 4xx answers a route can give through the app's shared hooks and parsers, besides those its
 * own schema declares: every route refuses a badly encoded query string (400); a secure route
 * answers 401 without a session; a product route 403 'Invalid participant', a write 403 from
 * another origin; a body may be too large (413) or of a type the route does not take (415); a
 * rate-limited route answers 429.
 */
function sharedErrorsOf(route: RouteOptions, schema: RouteSchema, access: SecurityNeeds, write: boolean): Record<string, string> {
  const errors: Record<string, string> = {
    400: 'The request is malformed: a badly encoded URL, or a parameter or body that fails the schema (the message names it)',
  };
  if (access.session === 'required') errors[401] = 'No live session: sign in first';
  const refusals = [
    access.participant ? `'Invalid participant': ${PARTICIPANT_HEADER} names no active organization of the caller` : '',
    access.role ? 'the caller lacks the role this call asks for' : '',
    write ? 'a write sent from another origin' : '',
  ].filter(Boolean);
  if (refusals.length > 0) errors[403] = `Refused: ${refusals.join('; or ')}`;
  if (schema.body !== undefined || schema.consumes !== undefined) {
    errors[413] = 'The body is larger than this call takes';
    errors[415] = 'The body is of a content type this call does not take';
  }
  if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit) errors[429] = 'Too many requests: wait and try again';
  errors.default = 'An unexpected server error; the body never holds internals';
  return errors;
}

/** A page (the hosted sign-in and password pages) answers its errors as the page again, not JSON. */
const pageContent = (description: string) => ({ 'text/html': { schema: z.string().meta({ description }) } });
const errorContent = (html: boolean) =>
  html ? pageContent('The page, with the problem shown') : { 'application/json': { schema: errorBodySchema } };

const SEE_OTHER = {
  type: 'null',
  description: 'See Other: the next page is in the Location header',
  headers: { location: { type: 'string', description: 'A same-origin path' } },
};

/**
 * The route's schema with its operationId, security and the answers it can give besides those it
 * declares, then zod's JSON Schema transform. A route that declares no success answer is a page
 * (200 HTML, on a GET that produces HTML) or a step of a browser flow that redirects (303, on a
 * write or where the session is optional: a signed-out caller is sent to sign in).
 */
const transform: typeof jsonSchemaTransform = (input) => {
  const { route } = input;
  const schema = (input.schema ?? {}) as RouteSchema;
  if (schema.hide) return jsonSchemaTransform(input);
  const access = accessOf(route);
  const method = [route.method].flat()[0] ?? 'GET';
  const write = WRITE_METHODS.has(method);
  const html = schema.produces?.includes('text/html') ?? false;
  const declared = (schema.response ?? {}) as Record<string, unknown>;
  const answers: Record<string, unknown> = { ...declared };
  for (const [status, description] of Object.entries(sharedErrorsOf(route, schema, access, write))) {
    answers[status] ??= { description, content: errorContent(html) };
  }
  const declaresSuccess = Object.keys(declared).some((status) => /^[23]/.test(status));
  if (!declaresSuccess && html && !write) answers[200] = { description: 'The page', content: pageContent('The page') };
  const transformed = jsonSchemaTransform({
    ...input,
    schema: {
      ...schema,
      operationId: schema.operationId ?? operationIdOf(method, route.url),
      security: schema.security ?? securityOf(access),
      response: answers,
    } as typeof input.schema,
  });
  const redirects = !declaresSuccess && (write || access.session === 'optional');
  if (!redirects) return transformed;
  const response = (transformed.schema.response ?? {}) as Record<string, unknown>;
  return { ...transformed, schema: { ...transformed.schema, response: { 303: SEE_OTHER, ...response } } };
};

async function openApiPlugin(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loan registry API',
        description: 'Identity broker and product service of the loan registry (SPEC section 7).',
        version: '1.0.0',
        // The project names no licence (package.json is private): all rights reserved, in SPDX's form for one it does not list.
        license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
      },
      // The document describes the server that serves it; service base URLs are configurable (README).
      servers: [{ url: '/', description: 'The server this document was read from' }],
      components: {
        securitySchemes: {
          [SECURITY_SCHEMES.session]: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName(options.cookieSecure),
            description: 'The session cookie set by the hosted sign-in page',
          },
          [SECURITY_SCHEMES.participant]: {
            type: 'apiKey',
            in: 'header',
            name: PARTICIPANT_HEADER,
            description: "The organization a product call acts for (one the caller belongs to); without it, the caller's default one",
          },
        },
      },
    },
    transform,
  });
  const document = () => app.swagger();
  app.get(API_DOCS_PATH, { config: { access: 'public' }, schema: { hide: true } }, async () => document());
  app.get(`${API_DOCS_PATH}/json`, { config: { access: 'public' }, schema: { hide: true } }, async () => document());
}

export default fp(openApiPlugin, { name: 'openapi', fastify: '5.x' });
