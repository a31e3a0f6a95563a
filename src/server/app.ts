// Builds the registry server from its plugins and routes; main.ts decides how it runs.
import { parse as parseQueryString } from 'node:querystring';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { ServerConfig } from './config';
import type { Database } from './db/database';
import databasePlugin from './plugins/database';
import { registerErrorHandler } from './plugins/error-handler';
import { registerOpenApi, registerOpenApiRoutes } from './plugins/openapi';
import { registerSecurity } from './plugins/security';
import { registerSessions } from './plugins/session';
import { registerStaticApp } from './plugins/static-app';
import { registerTenancy } from './plugins/tenancy';
import { healthRoutes } from './routes/health';
import { identityRoutes } from './routes/identity';
import { userRoutes } from './routes/users';

export interface BuildAppOptions {
  readonly db: Database;
  readonly config: Pick<ServerConfig, 'nodeEnv' | 'cookieSecure' | 'trustProxy' | 'logLevel' | 'staticDir'> &
    Partial<Pick<ServerConfig, 'signInRateLimit'>>;
  /** Sign-in attempts per client address and minute (default: the config's, else 10). */
  readonly signInRateLimit?: number;
  /** Overrides Fastify's logger (tests pass false). */
  readonly logger?: FastifyServerOptions['logger'];
}

const FORM_BODY_LIMIT = 16 * 1024;

/** `application/x-www-form-urlencoded` as a flat object of strings (the first of repeated keys). */
function parseForm(body: string): Record<string, string> {
  const parsed = parseQueryString(body);
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') form[key] = first;
  }
  return form;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { db, config } = options;
  const production = config.nodeEnv === 'production';
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      // Cookies and credentials never reach the log.
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Request ids in logs and responses help support match a report to a log line.
    requestIdHeader: false,
    genReqId: () => crypto.randomUUID(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, parseForm(body as string));
  });

  // First, so every plugin and route after it can use `app.db`.
  await app.register(databasePlugin, { db });
  registerErrorHandler(app);
  await registerSecurity(app, { production });
  await app.register(cookie);
  registerSessions(app, { db });
  registerTenancy(app, { db });
  await registerOpenApi(app);

  await app.register(healthRoutes, { db });
  await app.register(identityRoutes, { db, cookieSecure: config.cookieSecure, signInRateLimit: options.signInRateLimit ?? config.signInRateLimit ?? 10 });
  await app.register(userRoutes, { db });

  registerOpenApiRoutes(app);
  await registerStaticApp(app, { staticDir: config.staticDir });
  return app;
}
