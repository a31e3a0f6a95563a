// Starts the registry server: database (embedded unless DATABASE_URL), migrations, demo seed on
// a fresh embedded database, HTTP, and a graceful shutdown on SIGINT/SIGTERM. The owner role
// migrates, seeds, creates pg-boss's schema and grants the application role, which the server's
// pool then uses (docs/decisions/0006-database-roles.md).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { DEMO_PASSWORD } from '../domain/constants';
import { buildApp } from './app';
import { parseConfig, type ServerConfig } from './config';
import { connectDatabase, currentRole, grantApplicationRole, migrateDatabase, withStartupLock, type DatabaseHandle } from './db/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded-postgres';
import { existingIdentityEmails } from './db/identity-repository';
import { DEMO_ACCOUNTS, seedDemoData } from './seed';
import { hasNoParticipants } from './db/user-repository';
import { createJobSchema, JOB_SCHEMA } from './jobs/job-runner';

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly config: ServerConfig;
  /** The demo accounts present in the database (empty when it holds no demo data). */
  readonly demoAccounts: readonly { email: string; description: string }[];
  /** Stops HTTP (draining requests), then the pool, then the embedded PostgreSQL. Idempotent. */
  close(): Promise<void>;
}

export interface StartOptions {
  readonly log?: (message: string) => void;
}

/** Creates the data folder so the unprivileged `postgres` user (when running as root) can enter it. */
function prepareDataDir(dataDir: string): void {
  const missing: string[] = [];
  for (let dir = dataDir; !fs.existsSync(dir); dir = path.dirname(dir)) missing.push(dir);
  fs.mkdirSync(dataDir, { recursive: true });
  for (const dir of missing) fs.chmodSync(dir, 0o755);
}

export async function startServer(config: ServerConfig = parseConfig(), options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? ((message: string) => console.log(message));
  let embedded: EmbeddedDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;

  const close = once(async () => {
    await app?.close();
    await handle?.close();
    await embedded?.stop();
  });

  try {
    let connectionString = config.databaseUrl;
    let ownerConnectionString = config.migrationDatabaseUrl;
    if (!connectionString) {
      prepareDataDir(config.dataDir);
      log(`Starting embedded PostgreSQL (data in ${config.dataDir})...`);
      embedded = await startEmbeddedPostgres(config.dataDir).catch((cause: unknown) => {
        // Say what to check first, then what PostgreSQL said.
        const detail = cause instanceof Error ? `\n${cause.message}` : '';
        throw new Error(`Embedded PostgreSQL did not start in ${config.dataDir}: is another registry server using it?${detail}`, { cause });
      });
      connectionString = embedded.applicationConnectionString();
      ownerConnectionString = embedded.connectionString();
    }
    const application = connectDatabase(connectionString, config.databasePoolSize);
    handle = application;
    const owner = ownerConnectionString ? connectDatabase(ownerConnectionString, 2) : application;
    try {
      // Servers starting together on one database prepare it one at a time.
      await withStartupLock(ownerConnectionString ?? connectionString, async () => {
        await migrateDatabase(owner);
        // Demo data only ever goes into our own embedded database, never into a DATABASE_URL one.
        if (embedded && (embedded.initialized || (await hasNoParticipants(owner.db)))) {
          log(`Seeding demo data (${config.seedLoans} loans)...`);
          await seedDemoData(owner.db, { loans: config.seedLoans, log });
        }
        await createJobSchema(owner.db);
        const applicationRole = await currentRole(application);
        if (owner !== application && applicationRole !== (await currentRole(owner))) {
          await grantApplicationRole(owner, applicationRole, ['public', JOB_SCHEMA]);
        }
      });
    } finally {
      if (owner !== application) await owner.close();
    }
    const present = await existingIdentityEmails(
      handle.db,
      DEMO_ACCOUNTS.map((account) => account.email),
    );
    const demoAccounts = DEMO_ACCOUNTS.filter((account) => present.has(account.email.toLowerCase()));

    app = await buildApp({ db: handle.db, config });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    return { app, url, config, demoAccounts, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}

export function printBanner(server: RunningServer, log: (message: string) => void = console.log): void {
  log(`Loan registry running at ${server.url}/registry/`);
  if (server.demoAccounts.length > 0) {
    log(`Demo accounts (password: ${DEMO_PASSWORD}):`);
    for (const account of server.demoAccounts) log(`  ${account.email.padEnd(28)} ${account.description}`);
  }
}

/**
 * Closes the server on SIGINT/SIGTERM and exits 0; a second signal exits at once.
 * embedded-postgres installs an exit hook that would stop PostgreSQL under running requests and
 * exit 130, so the handlers present before this call are replaced.
 */
export function exitOnSignals(close: () => Promise<void>, log: (message: string) => void = console.log): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal} received: shutting down...`);
    const timer = setTimeout(() => {
      log('Shutdown took too long: exiting.');
      process.exit(1);
    }, 15_000);
    timer.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, onSignal);
  }
}

/** `npm run server`: the server alone, without building the web app. */
export async function runServer(config: ServerConfig = parseConfig()): Promise<RunningServer> {
  const server = await startServer(config);
  exitOnSignals(server.close);
  printBanner(server);
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runServer().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
