// One embedded PostgreSQL for the whole Vitest run; each test file makes its own database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/server/db/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresOwnerUrl: string;
    postgresApplicationUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // embedded-postgres's exit hook (async-exit-hook) answers 'beforeExit' with process.exit(0),
  // which would turn Vitest's failing exit code into success: exit first, with Vitest's code.
  process.prependListener('beforeExit', () => process.exit(process.exitCode ?? 0));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-vitest-'));
  fs.chmodSync(dataDir, 0o755);
  // Throwaway databases, never backed up: no WAL archive to fill with every test's writes.
  const postgres = await startEmbeddedPostgres(dataDir, { archive: false });
  // The bootstrap superuser, for set-up only: each test file makes its database with it.
  project.provide('postgresAdminUrl', postgres.superuserConnectionString('postgres'));
  // The owner role migrates each test database; tests and their servers run as the application role.
  project.provide('postgresOwnerUrl', postgres.connectionString('postgres'));
  project.provide('postgresApplicationUrl', postgres.applicationConnectionString('postgres'));
  return async () => {
    await postgres.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
