// Server configuration, parsed once from the environment so a typo fails at start, not at first use.
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SERVICER_LOOKUP_SETTINGS, type ServicerLookupSettings } from './servicer-lookup-settings';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** How long a session's caller lookup is reused by default (see src/server/identity/caller-cache.ts). */
export const DEFAULT_CALLER_CACHE_MS = 10_000;
export const DEFAULT_LOAN_PAGE_CACHE_MB = 32;
/** A session unused this long is dead; each authenticated request slides it. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** Live sessions one identity may have; a sign-in beyond them ends the oldest. */
export const DEFAULT_MAX_SESSIONS_PER_IDENTITY = 10;
/** Password guesses per account within 15 minutes before its sign-ins answer 429 (any address). */
export const DEFAULT_SIGN_IN_ACCOUNT_LIMIT = 5;
/** How often a server deletes expired sessions (absolute or idle). */
export const DEFAULT_SESSION_PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** Security events are kept this long (13 months: a year of audit trail, as PCI DSS 10.5.1 asks, and a month to read it). */
export const DEFAULT_SECURITY_EVENT_RETENTION_DAYS = 400;
/** A finished batch job and its zip are kept this long after it finished (then both are deleted). */
export const DEFAULT_JOB_RETENTION_HOURS = 7 * 24;
/** How often a server deletes finished jobs past their retention. */
export const DEFAULT_JOB_PURGE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * Connections of the server's main pool: 2 per core and 1 (the usual rule for a database on the
 * same cores), at least 5. On two cores, 10 connections ran the asset list 8 to 13% slower than 5
 * (docs/benchmarks.md, 2026-11-27): ten busy backends on two cores only take turns. CSV streams
 * have a pool of their own (csv/stream-slots.ts).
 */
export const defaultDatabasePoolSize = (cores = os.availableParallelism()): number => Math.max(5, 2 * cores + 1);
/** A whole request, headers and body, must arrive within this (a 10 MB upload at about 1 Mbit/s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
/** A JSON or form body must have arrived this long after its headers (uploads keep DEFAULT_REQUEST_TIMEOUT_MS). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** A connection that sends nothing for this long is closed (slow-body and idle attacks). */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 30_000;

/** An invitation link is valid this long (7 days). */
export const DEFAULT_INVITATION_TTL_HOURS = 7 * 24;
/** The sender of the outbox's mail when MAIL_FROM is unset. */
export const DEFAULT_MAIL_FROM = 'Loan Registry <no-reply@registry.invalid>';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.url().optional(),
  /** The owner role of DATABASE_URL's database: migrations, pg-boss's schema and the grants (docs/decisions/0006). */
  MIGRATION_DATABASE_URL: z.url().optional(),
  /** Connections of the main pool (CSV streams have their own); default defaultDatabasePoolSize(). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  SEED_LOANS: z.coerce.number().int().min(0).default(2000),
  COOKIE_SECURE: booleanString.optional(),
  TRUST_PROXY: booleanString.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  STATIC_DIR: z.string().min(1).default('dist'),
  /** Sign-in attempts per minute per client address. */
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Milliseconds a session's caller lookup is reused (0: off); emptied on every change, see caller-cache.ts. */
  CALLER_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(DEFAULT_CALLER_CACHE_MS),
  /** Megabytes of asset list pages kept (0: off); emptied on every change, see loan-page-cache.ts. */
  LOAN_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(DEFAULT_LOAN_PAGE_CACHE_MB),
  /** Milliseconds a request (headers and body) may take to arrive before a 408. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_REQUEST_TIMEOUT_MS),
  /** Milliseconds from a request's headers to the last byte of its JSON or form body before a 408 (uploads: REQUEST_TIMEOUT_MS). */
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_BODY_TIMEOUT_MS),
  /** Milliseconds a connection may stay silent before it is closed. */
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_CONNECTION_TIMEOUT_MS),
  /** Milliseconds a session may go unused before it is dead (sliding, inside the 12-hour lifetime). */
  SESSION_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(12 * 60 * 60 * 1000)
    .default(DEFAULT_SESSION_IDLE_TIMEOUT_MS),
  /** Live sessions per identity; a new sign-in beyond them ends the oldest. */
  MAX_SESSIONS_PER_IDENTITY: z.coerce.number().int().min(1).max(1000).default(DEFAULT_MAX_SESSIONS_PER_IDENTITY),
  /** Password guesses per account (email) within 15 minutes, from any address. */
  SIGN_IN_ACCOUNT_LIMIT: z.coerce.number().int().min(1).max(1000).default(DEFAULT_SIGN_IN_ACCOUNT_LIMIT),
  /** Milliseconds between purges of expired sessions. */
  SESSION_PURGE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 60 * 60 * 1000)
    .default(DEFAULT_SESSION_PURGE_INTERVAL_MS),
  /** Days a security event is kept; older ones go at the session purge's rounds. */
  SECURITY_EVENT_RETENTION_DAYS: z.coerce.number().int().min(30).max(3650).default(DEFAULT_SECURITY_EVENT_RETENTION_DAYS),
  /** Hours a finished job (DONE or FAILED) and its zip are kept; then both are deleted. */
  JOB_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 366)
    .default(DEFAULT_JOB_RETENTION_HOURS),
  /** Milliseconds between purges of finished jobs past their retention. */
  JOB_PURGE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 60 * 60 * 1000)
    .default(DEFAULT_JOB_PURGE_INTERVAL_MS),
  /** Run background jobs in this process (false: only enqueue them, another server runs them). */
  JOB_WORKERS: booleanString.default(true),
  /** Test only: each background job step pauses this long (ms), so a test can stop a server mid-job. */
  JOB_TEST_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** Hours an invitation link stays valid. */
  INVITATION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(DEFAULT_INVITATION_TTL_HOURS),
  /** Where the outbox's mail goes (nodemailer's createTransport URL, smtp:// or smtps://); unset, mail stays in the outbox. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).max(320).default(DEFAULT_MAIL_FROM),
  ADDRESS_LOOKUP_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Where the outbox's SMS go: each is POSTed there as JSON { to, body }; unset, SMS stay in the outbox. */
  SMS_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The WebAuthn relying party: its id (a domain, never an IP address), its name, and the origin its pages are served on. */
  WEBAUTHN_RP_ID: z.string().min(1).max(253).default('localhost'),
  WEBAUTHN_RP_NAME: z.string().min(1).max(100).default('Loan Registry'),
  WEBAUTHN_ORIGIN: z.url().optional(),
  /** The public servicer lookup: every answer's minimum time (ms), and its limits per client address and per (last name, zip) per hour. */
  LOOKUP_TIME_FLOOR_MS: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_SERVICER_LOOKUP_SETTINGS.timeFloorMs),
  LOOKUP_CLIENT_LIMIT: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_SERVICER_LOOKUP_SETTINGS.clientLimit),
  LOOKUP_NAME_ZIP_LIMIT: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_SERVICER_LOOKUP_SETTINGS.nameZipLimit),
  /** PBKDF2 iterations per try of the lookup's proof of work. */
  LOOKUP_CHALLENGE_COST: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_SERVICER_LOOKUP_SETTINGS.challengeCost),
  /** The folder (http or https) holding banners.json and banners.test.json; unset, the banner files come from PostgreSQL. */
  BANNERS_URL: z.url({ protocol: /^https?$/ }).optional(),
});

export interface ServerConfig {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  /** When unset the server runs its own embedded PostgreSQL with data in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /**
   * The role that owns DATABASE_URL's database, for migrations, pg-boss's schema and the grants to
   * DATABASE_URL's role; unset, DATABASE_URL does all of it (and must own the database).
   */
  readonly migrationDatabaseUrl: string | undefined;
  /** Connections of the main pool (DATABASE_POOL_SIZE). */
  readonly databasePoolSize: number;
  readonly dataDir: string;
  readonly seedLoans: number;
  readonly cookieSecure: boolean;
  readonly trustProxy: boolean;
  readonly logLevel: string;
  /** The built web app (Vite's outDir). */
  readonly staticDir: string;
  readonly signInRateLimit: number;
  readonly callerCacheMs: number;
  readonly loanPageCacheMb: number;
  readonly requestTimeoutMs: number;
  /** BODY_TIMEOUT_MS: a JSON or form body's deadline after its headers. */
  readonly bodyTimeoutMs: number;
  readonly connectionTimeoutMs: number;
  readonly sessionIdleTimeoutMs: number;
  readonly maxSessionsPerIdentity: number;
  readonly signInAccountLimit: number;
  readonly sessionPurgeIntervalMs: number;
  readonly securityEventRetentionDays: number;
  /** Whether this process runs background jobs (src/server/jobs/); tests' apps leave it off. */
  readonly jobWorkers: boolean;
  readonly jobRetentionHours: number;
  readonly jobPurgeIntervalMs: number;
  /** Test only (JOB_TEST_DELAY_MS): the pause of each job step. */
  readonly jobTestDelayMs: number;
  /** INVITATION_TTL_HOURS: how long an invitation link is valid. */
  readonly invitationTtlHours: number;
  /** SMTP_URL: the outbox job sends mail through it; unset, mail stays in the outbox (and links are logged). */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** ADDRESS_LOOKUP_URL: an external address provider the web app calls (built with the same value); its origin joins the CSP's connect-src. */
  readonly addressLookupUrl?: string | undefined;
  /** SMS_WEBHOOK_URL: the outbox job posts each SMS there; unset, SMS stay in the outbox. */
  readonly smsWebhookUrl: string | undefined;
  /** The WebAuthn relying party (WEBAUTHN_RP_ID, WEBAUTHN_RP_NAME, WEBAUTHN_ORIGIN; the origin defaults to http://<rpId>:<port>). */
  readonly webauthn: WebauthnSettings;
  /** The public servicer lookup's time floor, limits and proof of work (LOOKUP_*). */
  readonly servicerLookup: ServicerLookupSettings;
  /** BANNERS_URL: the remote folder of the banner files; unset, they are served from PostgreSQL. */
  readonly bannersUrl: string | undefined;
}

/** The WebAuthn relying party the server registers and checks credentials for. */
export interface WebauthnSettings {
  readonly rpId: string;
  readonly rpName: string;
  /** The origins a ceremony may come from (a browser's page origin). */
  readonly origins: readonly string[];
}

/** The relying party of apps built without one (tests): localhost, as browsers take no IP address. */
export const DEFAULT_WEBAUTHN_SETTINGS: WebauthnSettings = {
  rpId: 'localhost',
  rpName: 'Loan Registry',
  origins: ['http://localhost:8080'],
};

export function parseConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  // Empty strings count as unset: `PORT= npm start` should mean the default, not an error.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const parsed = result.data;
  if (parsed.MIGRATION_DATABASE_URL && !parsed.DATABASE_URL) {
    throw new Error('Invalid configuration: MIGRATION_DATABASE_URL needs DATABASE_URL (the embedded database makes its own roles)');
  }
  const production = parsed.NODE_ENV === 'production';
  return {
    nodeEnv: parsed.NODE_ENV,
    port: parsed.PORT,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL,
    migrationDatabaseUrl: parsed.MIGRATION_DATABASE_URL,
    databasePoolSize: parsed.DATABASE_POOL_SIZE ?? defaultDatabasePoolSize(),
    dataDir: path.resolve(parsed.DATA_DIR),
    seedLoans: parsed.SEED_LOANS,
    cookieSecure: parsed.COOKIE_SECURE ?? production,
    trustProxy: parsed.TRUST_PROXY,
    logLevel: parsed.LOG_LEVEL ?? (parsed.NODE_ENV === 'test' ? 'silent' : 'info'),
    staticDir: path.resolve(parsed.STATIC_DIR),
    signInRateLimit: parsed.SIGN_IN_RATE_LIMIT,
    callerCacheMs: parsed.CALLER_CACHE_MS,
    loanPageCacheMb: parsed.LOAN_PAGE_CACHE_MB,
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS,
    bodyTimeoutMs: parsed.BODY_TIMEOUT_MS,
    connectionTimeoutMs: parsed.CONNECTION_TIMEOUT_MS,
    sessionIdleTimeoutMs: parsed.SESSION_IDLE_TIMEOUT_MS,
    maxSessionsPerIdentity: parsed.MAX_SESSIONS_PER_IDENTITY,
    signInAccountLimit: parsed.SIGN_IN_ACCOUNT_LIMIT,
    sessionPurgeIntervalMs: parsed.SESSION_PURGE_INTERVAL_MS,
    securityEventRetentionDays: parsed.SECURITY_EVENT_RETENTION_DAYS,
    jobWorkers: parsed.JOB_WORKERS,
    jobRetentionHours: parsed.JOB_RETENTION_HOURS,
    jobPurgeIntervalMs: parsed.JOB_PURGE_INTERVAL_MS,
    jobTestDelayMs: parsed.JOB_TEST_DELAY_MS,
    invitationTtlHours: parsed.INVITATION_TTL_HOURS,
    smtpUrl: parsed.SMTP_URL,
    mailFrom: parsed.MAIL_FROM,
    addressLookupUrl: parsed.ADDRESS_LOOKUP_URL,
    smsWebhookUrl: parsed.SMS_WEBHOOK_URL,
    webauthn: {
      rpId: parsed.WEBAUTHN_RP_ID,
      rpName: parsed.WEBAUTHN_RP_NAME,
      origins: [parsed.WEBAUTHN_ORIGIN ?? `${production ? 'https' : 'http'}://${parsed.WEBAUTHN_RP_ID}:${parsed.PORT}`],
    },
    servicerLookup: {
      ...DEFAULT_SERVICER_LOOKUP_SETTINGS,
      timeFloorMs: parsed.LOOKUP_TIME_FLOOR_MS,
      clientLimit: parsed.LOOKUP_CLIENT_LIMIT,
      nameZipLimit: parsed.LOOKUP_NAME_ZIP_LIMIT,
      challengeCost: parsed.LOOKUP_CHALLENGE_COST,
    },
    bannersUrl: parsed.BANNERS_URL,
  };
}
