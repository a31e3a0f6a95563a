// Servers that start together on one empty database (two servers on one PostgreSQL) must
// apply each migration once, not race each other through the same statements.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, grantApplicationRole, migrateDatabase, withStartupLock, type DatabaseHandle } from '../../src/server/db/database';
import { createEmptyDatabase } from '../support/test-database';

const journal = JSON.parse(fs.readFileSync('src/server/db/migrations/meta/_journal.json', 'utf8')) as {
  entries: unknown[];
};

describe('migrations', () => {
  const handles: DatabaseHandle[] = [];
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close()));
  });

  it('three servers migrating one empty database at once apply every migration exactly once', async () => {
    const url = await createEmptyDatabase();
    const servers = [connectDatabase(url, 2), connectDatabase(url, 2), connectDatabase(url, 2)];
    handles.push(...servers);
    const results = await Promise.allSettled(servers.map((handle) => migrateDatabase(handle)));
    expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);

    const [first] = servers as [DatabaseHandle];
    const applied = await first.pool.query<{ hash: string; count: number }>(
      'SELECT hash, count(*)::int AS count FROM drizzle.__drizzle_migrations GROUP BY hash',
    );
    expect(applied.rows).toHaveLength(journal.entries.length);
    expect(applied.rows.every((row) => row.count === 1)).toBe(true);
    // The schema is whole: the last migration's table answers.
    const totals = await first.pool.query('SELECT count(*)::int AS n FROM loan_list_totals');
    expect(totals.rows[0]).toEqual({ n: 0 });
  });

  it('three servers granting the application role at once all start', async () => {
    const url = await createEmptyDatabase();
    const servers = [connectDatabase(url, 2), connectDatabase(url, 2), connectDatabase(url, 2)];
    handles.push(...servers);
    const [first] = servers as [DatabaseHandle];
    await migrateDatabase(first);
    const role = `test_app_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    // Making roles is the bootstrap superuser's, on this database.
    const superuser = new pg.Client({
      connectionString: inject('postgresAdminUrl').replace(/\/[^/?]+$/, new URL(url).pathname),
    });
    await superuser.connect();
    await superuser.query(`CREATE ROLE ${role} NOLOGIN`);
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.allSettled(servers.map((handle) => grantApplicationRole(handle, role, ['public'])));
        expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      }
      const granted = await first.pool.query<{ allowed: boolean }>(`SELECT has_table_privilege($1, 'loans', 'SELECT') AS allowed`, [role]);
      expect(granted.rows[0]?.allowed).toBe(true);
    } finally {
      await superuser.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
      await superuser.end();
    }
  });

  it('server starts prepare the database one at a time, and a failed start lets the next one go', async () => {
    const url = await createEmptyDatabase();
    const steps: string[] = [];
    const start = (name: string, fail = false) =>
      withStartupLock(url, async () => {
        steps.push(`${name} begins`);
        await new Promise((resolve) => setTimeout(resolve, 150));
        steps.push(`${name} ends`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      });
    const results = await Promise.allSettled([start('a', true), start('b'), start('c')]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason)))).toEqual([
      'Error: a failed',
      'b',
      'c',
    ]);
    // Never two at once: each start ends before the next begins.
    expect(steps).toHaveLength(6);
    for (let i = 0; i < steps.length; i += 2) expect(steps[i + 1]).toBe(steps[i]?.replace('begins', 'ends'));
  });

  it('leaves no lock behind: a later start migrates (nothing to do) without waiting', async () => {
    const url = await createEmptyDatabase();
    const handle = connectDatabase(url, 2);
    handles.push(handle);
    await migrateDatabase(handle);
    await migrateDatabase(handle);
    const locks = await handle.pool.query(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
       WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
    );
    expect(locks.rows[0]).toEqual({ n: 0 });
  });

  it("keeps drizzle-kit's latest snapshot in step with schema.ts: db:generate finds nothing to write", async () => {
    // A copy of what drizzle-kit reads, so a change it would write stays out of the project.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'drizzle-check-'));
    try {
      fs.mkdirSync(path.join(folder, 'src/server/db'), { recursive: true });
      fs.copyFileSync('drizzle.config.ts', path.join(folder, 'drizzle.config.ts'));
      fs.copyFileSync('src/server/db/schema.ts', path.join(folder, 'src/server/db/schema.ts'));
      fs.cpSync('src/server/db/migrations', path.join(folder, 'src/server/db/migrations'), { recursive: true });
      fs.symlinkSync(path.resolve('node_modules'), path.join(folder, 'node_modules'));
      const { stdout } = await promisify(execFile)(path.resolve('node_modules/.bin/drizzle-kit'), ['generate', '--name', 'check'], {
        cwd: folder,
      });
      expect(stdout).toContain('No schema changes');
      expect(fs.readdirSync(path.join(folder, 'src/server/db/migrations')).filter((file) => file.endsWith('.sql'))).toHaveLength(
        journal.entries.length,
      );
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
