// OpenAPI generated from the contract's zod schemas, served at /registry/api-docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { BASE_PATH } from '../../domain/constants';
import { sessionCookieName } from '../identity/sessions';

export const API_DOCS_PATH = `${BASE_PATH}/api-docs`;

/**
 * Registered before the routes it documents: @fastify/swagger collects routes as they are added.
 * The document is built on the first request, so its own (hidden) routes may be added here.
 */
export interface OpenApiOptions {
  /** The session cookie is Secure, hence named with the __Host- prefix (sessionCookieName). */
  readonly cookieSecure: boolean;
}

async function openApiPlugin(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loan registry API',
        description: 'Identity broker and product service of the loan registry (SPEC section 7).',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(options.cookieSecure) } },
      },
    },
    transform: jsonSchemaTransform,
  });
  const document = () => app.swagger();
  app.get(API_DOCS_PATH, { config: { access: 'public' }, schema: { hide: true } }, async () => document());
  app.get(`${API_DOCS_PATH}/json`, { config: { access: 'public' }, schema: { hide: true } }, async () => document());
}

export default fp(openApiPlugin, { name: 'openapi', fastify: '5.x' });
