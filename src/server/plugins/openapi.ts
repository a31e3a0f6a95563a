// OpenAPI generated from the contract's zod schemas, served at /registry/api-docs.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { BASE_PATH } from '../../domain/constants';

export const API_DOCS_PATH = `${BASE_PATH}/api-docs`;

/** Must be registered before the routes it documents (it collects them as they are added). */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Loan registry API',
        description: 'Identity broker and product service of the loan registry (SPEC section 7).',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'registry_session' } },
      },
    },
    transform: jsonSchemaTransform,
  });
}

/** The document routes, added after the documented routes. */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  const document = () => app.swagger();
  app.get(API_DOCS_PATH, { schema: { hide: true } }, async () => document());
  app.get(`${API_DOCS_PATH}/json`, { schema: { hide: true } }, async () => document());
}
