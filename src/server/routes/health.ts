// Liveness plus a database round trip, for load balancers and the start script.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema, healthSchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import { errorBody } from '../plugins/error-handler';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    PATHS.health,
    {
      config: { access: 'public' },
      schema: { tags: ['health'], summary: 'Server and database health', response: { 200: healthSchema, 503: errorBodySchema } },
    },
    async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
      } catch (error) {
        request.log.error({ err: error }, 'database ping failed');
        return reply.code(503).send(errorBody(503, 'Database unavailable'));
      }
      return { status: 'ok' as const };
    },
  );
}
