// A fresh, migrated database per test file, on the run's embedded PostgreSQL, prepared the way
// main.ts prepares a deployment: the owner role migrates and makes pg-boss's schema, then grants
// the application role its rows. Tests and the servers they build use the application role, so a
// table or function a migration forgets to grant fails here, not first in production.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, currentRole, grantApplicationRole, migrateDatabase, type DatabaseHandle } from '../../src/server/db/database';
import { createJobSchema, JOB_SCHEMA } from '../../src/server/jobs/job-runner';

/** The application role's pool (no superuser, no ownership: what the server runs as), and the owner's. */
export interface TestDatabase extends DatabaseHandle {
  /** The application role's connection URL (DATABASE_URL of a server started on this database). */
  readonly url: string;
  /** The owner role's URL (MIGRATION_DATABASE_URL): migrations, the seed, DDL a test needs. */
  readonly ownerUrl: string;
  /** The owner role's pool, for what the application role may not do (the seed, ALTER TABLE). */
  readonly owner: DatabaseHandle;
}

/** `url` naming another database of the same cluster. */
const onDatabase = (url: string, name: string): string => url.replace(/\/[^/?]+(\?|$)/, `/${name}$1`);

/** A new, empty database owned by the owner role (no migrations): its owner's connection URL. */
export async function createEmptyDatabase(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  const ownerUrl = inject('postgresOwnerUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const owner = new URL(ownerUrl).username;
    await admin.query(`CREATE DATABASE ${name} OWNER ${pg.escapeIdentifier(decodeURIComponent(owner))}`);
  } finally {
    await admin.end();
  }
  return onDatabase(ownerUrl, name);
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const ownerUrl = await createEmptyDatabase();
  const url = onDatabase(inject('postgresApplicationUrl'), new URL(ownerUrl).pathname.slice(1));
  const owner = connectDatabase(ownerUrl, 2);
  try {
    await migrateDatabase(owner);
    await createJobSchema(owner.db);
    const application = connectDatabase(url, 4);
    await grantApplicationRole(owner, await currentRole(application), ['public', JOB_SCHEMA]);
    return {
      ...application,
      url,
      ownerUrl,
      owner,
      close: async () => {
        await application.close();
        await owner.close();
      },
    };
  } catch (error) {
    await owner.close();
    throw error;
  }
}
