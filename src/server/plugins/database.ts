// The database as a decoration of the Fastify instance: routes and plugins reach it as `app.db`
// (or `request.server.db`) instead of threading it through options.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry's database (drizzle over a pg pool owned by main.ts, which closes it). */
    readonly db: Database;
  }
}

export interface DatabasePluginOptions {
  readonly db: Database;
}

async function databasePlugin(app: FastifyInstance, options: DatabasePluginOptions): Promise<void> {
  app.decorate('db', options.db);
}

export default fp(databasePlugin, { name: 'database', fastify: '5.x' });
