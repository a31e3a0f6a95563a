// A fresh, migrated database per test file, on the run's embedded PostgreSQL.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../../src/server/db/database';

export interface TestDatabase extends DatabaseHandle {
  readonly url: string;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  const handle = connectDatabase(url, 4);
  await migrateDatabase(handle);
  return { ...handle, url };
}
