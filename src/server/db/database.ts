import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Database = NodePgDatabase<typeof schema>;
/** What `db.transaction(async (tx) => ...)` hands its callback. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  readonly db: Database;
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export function connectDatabase(connectionString: string, maxConnections = 10): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/** The advisory lock key held while migrating: 'registry migrations' as a 64-bit number. */
export const MIGRATION_LOCK_KEY = 0x7265_6769_6d69_67n;

/** The advisory lock key held while a server prepares the database at start: 'registry start'. */
export const STARTUP_LOCK_KEY = 0x7265_6773_7461_7274n;

/**
 * Runs `work` (a server's start-up: migrations, pg-boss's schema, the grants) while holding a
 * session advisory lock on a connection of its own, so servers starting together on one database
 * prepare it one after the other. pg-boss, for one, creates its schema with CREATE SCHEMA IF NOT
 * EXISTS, which fails in one of two starts that run it at once. A key of its own (not
 * MIGRATION_LOCK_KEY, which the steps take themselves) so the steps inside do not wait for it.
 */
export async function withStartupLock<T>(connectionString: string, work: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString });
  // A holder that loses its server must not crash the process: the lock ends with the session.
  holder.on('error', () => undefined);
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY.toString()]);
    return await work();
  } finally {
    // Ending the session releases its lock.
    await holder.end().catch(() => undefined);
  }
}

/**
 * Applies the committed SQL migrations (idempotent; drizzle records what has run). Servers that
 * start together on one database take turns: drizzle reads the last applied migration and then
 * applies the newer ones, so two at once would both apply them. The first holds a session
 * advisory lock on one connection while it migrates; the others wait, then find nothing to do.
 */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const client = await handle.pool.connect();
  let broken = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => {
        // A connection that cannot unlock is not reused: closing it releases the lock.
        broken = true;
      });
    }
  } finally {
    client.release(broken);
  }
}

/** The role a connection logs in as. */
export async function currentRole(handle: DatabaseHandle): Promise<string> {
  const { rows } = await handle.pool.query<{ role: string }>('SELECT current_user AS role');
  return rows[0]?.role ?? '';
}

/** Tables of the public schema the application role may insert into and read, never change. */
export const APPEND_ONLY_TABLES = ['audit_log'] as const;

/** Tables only the owner's functions touch (the audit chain's head, kept by a SECURITY DEFINER trigger). */
export const OWNER_ONLY_TABLES = ['audit_chain_head'] as const;

/**
 * Run by the owner role (the one that migrated) for the application role: exactly what the server
 * needs in each schema, on what exists now and, through the owner's default privileges, on what
 * later migrations or pg-boss queues create. Rows only: SELECT, INSERT, UPDATE, DELETE on the
 * tables (no TRUNCATE, REFERENCES or TRIGGER), USAGE on the sequences, EXECUTE on the functions
 * (the list index's and pg-boss's), USAGE on the schema (no CREATE). Nothing on drizzle's
 * migration journal. Idempotent: main.ts runs it at every start.
 */
export async function grantApplicationRole(handle: DatabaseHandle, applicationRole: string, schemas: readonly string[]): Promise<void> {
  const owner = pg.escapeIdentifier(await currentRole(handle));
  const role = pg.escapeIdentifier(applicationRole);
  const client = await handle.pool.connect();
  try {
    await client.query('BEGIN');
    // Concurrent GRANTs on one object fail ('tuple concurrently updated'): starts take turns here too.
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
    for (const name of schemas) {
      const schema = pg.escapeIdentifier(name);
      await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
      await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`);
      await client.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`);
      // Its own functions only: pg_trgm's belong to the bootstrap superuser (and PUBLIC may run them).
      const functions = await client.query<{ signature: string }>(
        `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
          WHERE p.pronamespace = $1::regnamespace AND p.proowner = current_user::regrole AND p.prokind = 'f'`,
        [name],
      );
      const signatures = functions.rows.map((row) => row.signature).join(', ');
      if (signatures) await client.query(`GRANT EXECUTE ON FUNCTION ${signatures} TO ${role}`);
      const future = `ALTER DEFAULT PRIVILEGES FOR ROLE ${owner} IN SCHEMA ${schema} GRANT`;
      await client.query(`${future} SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`);
      await client.query(`${future} USAGE ON SEQUENCES TO ${role}`);
      await client.query(`${future} EXECUTE ON FUNCTIONS TO ${role}`);
    }
    // Append-only tables: the server records, it never rewrites or erases what it recorded.
    for (const table of APPEND_ONLY_TABLES) {
      await client.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${pg.escapeIdentifier(table)} FROM ${role}`);
    }
    for (const table of OWNER_ONLY_TABLES) {
      await client.query(`REVOKE ALL ON ${pg.escapeIdentifier(table)} FROM ${role}`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    throw error;
  }
  client.release();
}
