// A fresh, migrated database per test file, on the run's embedded PostgreSQL.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../../src/server/db/database';

export interface TestDatabase extends DatabaseHandle {
  readonly url: string;
}

/** A new, empty database on the run's embedded PostgreSQL (no migrations): its connection URL. */
export async function createEmptyDatabase(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return adminUrl.replace(/\/postgres$/, `/${name}`);
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = await createEmptyDatabase();
  const handle = connectDatabase(url, 4);
  await migrateDatabase(handle);
  return { ...handle, url };
}
