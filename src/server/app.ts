// Builds the registry server from its plugins and routes; main.ts decides how it runs.
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type onRouteHookHandler } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_CALLER_CACHE_MS,
  DEFAULT_LOAN_PAGE_CACHE_MB,
  DEFAULT_CONNECTION_TIMEOUT_MS,
  DEFAULT_JOB_PURGE_INTERVAL_MS,
  DEFAULT_JOB_RETENTION_HOURS,
  DEFAULT_MAX_SESSIONS_PER_IDENTITY,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SECURITY_EVENT_RETENTION_DAYS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_SESSION_PURGE_INTERVAL_MS,
  DEFAULT_SIGN_IN_ACCOUNT_LIMIT,
  DEFAULT_INVITATION_TTL_HOURS,
  type ServerConfig,
} from './config';
import type { Database } from './db/database';
import { badRequest } from './http-errors';
import type { ScryptParams } from './identity/passwords';
import accessPlugin from './plugins/access';
import bodyDeadlinePlugin from './plugins/body-deadline';
import databasePlugin from './plugins/database';
import errorHandlerPlugin, { clientErrorHandler, frameworkErrorHandler, securityHeaderLines } from './plugins/error-handler';
import jobsPlugin from './plugins/jobs';
import { backupSchedules } from './jobs/backup-job';
import loanPageCachePlugin from './plugins/loan-page-cache';
import openApiPlugin from './plugins/openapi';
import repositoriesPlugin from './plugins/repositories';
import securityPlugin, { securityHeaders } from './plugins/security';
import servicesPlugin from './plugins/services';
import sessionPlugin from './plugins/session';
import staticAppPlugin from './plugins/static-app';
import { RouteMethods } from './route-methods';
import { deactivationRoutes } from './routes/deactivation';
import { documentRoutes } from './routes/documents';
import { healthRoutes } from './routes/health';
import { identityRoutes } from './routes/identity';
import { invitationPageRoutes } from './routes/invitation-page';
import { jobRoutes } from './routes/jobs';
import { loanDetailsRoutes } from './routes/loan-details';
import { loanRoutes } from './routes/loans';
import { messageRoutes } from './routes/messages';
import { organizationUserRoutes } from './routes/organization-users';
import { participantRoutes } from './routes/participants';
import { auditRoutes } from './routes/audit';
import { poolRoutes } from './routes/pools';
import { profileRoutes } from './routes/profile';
import { reconciliationRoutes } from './routes/reconciliations';
import { roleRequestRoutes } from './routes/role-requests';
import { servicerLookupRoutes } from './routes/servicer-lookup';
import { addressLookupRoutes } from './routes/address-lookup';
import { DEFAULT_SERVICER_LOOKUP_SETTINGS, type ServicerLookupSettings } from './servicer-lookup-settings';
import { userRoutes } from './routes/users';
import { bannerRoutes } from './routes/banners';
import { DEFAULT_WEBAUTHN_SETTINGS, securityFactorRoutes } from './routes/security-factors';

export interface BuildAppOptions {
  readonly db: Database;
  readonly config: Pick<ServerConfig, 'nodeEnv' | 'cookieSecure' | 'trustProxy' | 'logLevel' | 'staticDir'> &
    Partial<
      Pick<
        ServerConfig,
        | 'signInRateLimit'
        | 'callerCacheMs'
        | 'loanPageCacheMb'
        | 'jobWorkers'
        | 'jobRetentionHours'
        | 'jobPurgeIntervalMs'
        | 'jobTestDelayMs'
        | 'databaseUrl'
        | 'dataDir'
        | 'requestTimeoutMs'
        | 'bodyTimeoutMs'
        | 'connectionTimeoutMs'
        | 'sessionIdleTimeoutMs'
        | 'maxSessionsPerIdentity'
        | 'signInAccountLimit'
        | 'sessionPurgeIntervalMs'
        | 'securityEventRetentionDays'
        | 'invitationTtlHours'
        | 'addressLookupUrl'
        | 'bannersUrl'
        | 'smtpUrl'
        | 'smsWebhookUrl'
        | 'webauthn'
      >
    > & { readonly servicerLookup?: Partial<ServicerLookupSettings> };
  /** Sign-in attempts per client address and minute (default: the config's, else 10). */
  readonly signInRateLimit?: number;
  /** The scrypt cost of new hashes, and of older ones rehashed at sign-in (default DEFAULT_SCRYPT_PARAMS; tests pass a cheap one). */
  readonly passwordHashParams?: ScryptParams;
  /** Overrides Fastify's logger (tests pass false). */
  readonly logger?: FastifyServerOptions['logger'];
  /** Sees every route as it is registered (the authorization matrix and the fuzzer read the route table). */
  readonly onRoute?: onRouteHookHandler;
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { db, config } = options;
  const production = config.nodeEnv === 'production';
  // Errors answered before any hook (bad URL encoding, headers too large) still get the app's body and headers.
  const connectOrigins = config.addressLookupUrl ? [new URL(config.addressLookupUrl).origin] : [];
  const setSecurityHeaders = securityHeaders({ production, connectOrigins });
  const requestTimeoutMs = config.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
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
    // Slow requests are cut off: the whole request within requestTimeout (then
    // 408 through clientErrorHandler), and a connection silent for connectionTimeout is closed.
    // Node checks the request deadline every connectionsCheckingInterval (30 s by default), and
    // only while the headers' deadline is not the longer one: Fastify sets requestTimeout after
    // creating the server, past Node's own min(60 s, requestTimeout) default for headersTimeout.
    // A JSON or form body has a shorter deadline of its own (plugins/body-deadline.ts).
    requestTimeout: requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    http: { connectionsCheckingInterval: Math.min(1000, requestTimeoutMs), headersTimeout: Math.min(60_000, requestTimeoutMs) },
    frameworkErrors: frameworkErrorHandler(setSecurityHeaders),
    clientErrorHandler: clientErrorHandler(securityHeaderLines(setSecurityHeaders)),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // No call takes plain text: without Fastify's default parser it is a 415 that names the type to
  // send, instead of a string that fails the body's schema ('expected object, received string').
  app.removeContentTypeParser('text/plain');

  // Shared plugins (fastify-plugin: their decorations and hooks reach every route) declare their
  // dependencies by name, so an order that breaks one fails at start. What a route reaches:
  // - `app.db`: the database (plugins/database.ts);
  // - `app.repositories.<name>.<fn>(...)`: a repository module's functions (src/server/db/*-repository.ts)
  //   with the database bound, e.g. `app.repositories.users.findUserById(id)` (plugins/repositories.ts;
  //   a new repository is one line there);
  // - `app.services.<name>.<fn>(...)`: multi-step writes, one transaction each (src/server/services/,
  //   plugins/services.ts); they throw domain errors (domain-errors.ts), which the error handler maps;
  // - `app.loanPages`: the asset list's page cache, exactly invalidated (plugins/loan-page-cache.ts);
  // - `request.identity`, `request.registryUser` and `request.membership`, set by the access hook
  //   (plugins/access.ts) as the route's declared `config.access` asks;
  // - throw ApiError helpers from http-errors.ts for what only HTTP knows; the error handler writes the body.
  await app.register(databasePlugin, { db });
  await app.register(repositoriesPlugin);
  await app.register(servicesPlugin);
  // `app.jobs` (plugins/jobs.ts); workers only where the config asks (tests leave them off).
  await app.register(jobsPlugin, {
    workers: config.jobWorkers ?? false,
    testDelayMs: config.jobTestDelayMs ?? 0,
    retentionHours: config.jobRetentionHours ?? DEFAULT_JOB_RETENTION_HOURS,
    purgeIntervalMs: config.jobPurgeIntervalMs ?? DEFAULT_JOB_PURGE_INTERVAL_MS,
    ...(config.jobWorkers && !config.databaseUrl && config.dataDir ? { schedules: backupSchedules(config.dataDir) } : {}),
  });
  await app.register(errorHandlerPlugin);
  // A query parameter given twice reaches zod as an array ('expected number, received NaN'): say
  // what is wrong instead. Only on routes with a query schema (the web app's own URLs are its business).
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.schema?.querystring) return;
    const repeated = Object.entries((request.query ?? {}) as Record<string, unknown>).find(([, value]) => Array.isArray(value));
    if (repeated) throw badRequest(`querystring.${repeated[0]}: give this parameter once`);
  });
  await app.register(securityPlugin, { production });
  await app.register(bodyDeadlinePlugin, { bodyTimeoutMs: config.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS });
  await app.register(cookie);
  await app.register(sessionPlugin, {
    callerCacheMs: config.callerCacheMs ?? DEFAULT_CALLER_CACHE_MS,
    cookieSecure: config.cookieSecure,
    idleTimeoutMs: config.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    purgeIntervalMs: config.sessionPurgeIntervalMs ?? DEFAULT_SESSION_PURGE_INTERVAL_MS,
    securityEventRetentionDays: config.securityEventRetentionDays ?? DEFAULT_SECURITY_EVENT_RETENTION_DAYS,
  });
  // Before every route: each declares its access (config.access), enforced by this one hook.
  await app.register(accessPlugin);
  await app.register(loanPageCachePlugin, { maxMegabytes: config.loanPageCacheMb ?? DEFAULT_LOAN_PAGE_CACHE_MB });
  // Before the routes: it documents the routes added after it.
  await app.register(openApiPlugin, { cookieSecure: config.cookieSecure });

  // Route modules are plain (encapsulated) plugins.
  await app.register(healthRoutes);
  await app.register(identityRoutes, {
    cookieSecure: config.cookieSecure,
    signInRateLimit: options.signInRateLimit ?? config.signInRateLimit ?? 10,
    idleTimeoutMs: config.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    maxSessionsPerIdentity: config.maxSessionsPerIdentity ?? DEFAULT_MAX_SESSIONS_PER_IDENTITY,
    signInAccountLimit: config.signInAccountLimit ?? DEFAULT_SIGN_IN_ACCOUNT_LIMIT,
    passwordHashParams: options.passwordHashParams,
    webauthn: config.webauthn ?? DEFAULT_WEBAUTHN_SETTINGS,
  });
  await app.register(invitationPageRoutes, {
    cookieSecure: config.cookieSecure,
    rateLimit: options.signInRateLimit ?? config.signInRateLimit ?? 10,
    accountLimit: config.signInAccountLimit ?? DEFAULT_SIGN_IN_ACCOUNT_LIMIT,
    maxSessionsPerIdentity: config.maxSessionsPerIdentity ?? DEFAULT_MAX_SESSIONS_PER_IDENTITY,
    passwordHashParams: options.passwordHashParams,
  });
  await app.register(userRoutes);
  await app.register(loanDetailsRoutes);
  await app.register(documentRoutes);
  await app.register(loanRoutes);
  await app.register(poolRoutes);
  await app.register(jobRoutes);
  await app.register(deactivationRoutes);
  await app.register(messageRoutes);
  await app.register(roleRequestRoutes);
  await app.register(organizationUserRoutes, { invitationTtlHours: config.invitationTtlHours ?? DEFAULT_INVITATION_TTL_HOURS });
  await app.register(participantRoutes);
  await app.register(servicerLookupRoutes, { ...DEFAULT_SERVICER_LOOKUP_SETTINGS, ...config.servicerLookup });
  await app.register(addressLookupRoutes);
  await app.register(reconciliationRoutes);
  await app.register(profileRoutes);
  await app.register(bannerRoutes, { production, bannersUrl: config.bannersUrl });
  await app.register(auditRoutes);
  await app.register(securityFactorRoutes, {
    cookieSecure: config.cookieSecure,
    rateLimit: options.signInRateLimit ?? config.signInRateLimit ?? 10,
    accountLimit: config.signInAccountLimit ?? DEFAULT_SIGN_IN_ACCOUNT_LIMIT,
    // The development mailbox: never in production, and only while no transport delivers anything.
    devMailbox: !production && !config.smtpUrl && !config.smsWebhookUrl,
    webauthn: config.webauthn ?? DEFAULT_WEBAUTHN_SETTINGS,
  });

  await app.register(staticAppPlugin, { staticDir: config.staticDir, routeMethods });
  return app;
}
