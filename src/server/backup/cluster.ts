// Reaching the embedded cluster of a data folder from outside its server: the port and socket
// folder PostgreSQL wrote in postmaster.pid, and the bootstrap superuser of the credentials file
// (the low-level backup API and pg_switch_wal are a superuser's).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readCredentials } from '../db/embedded-postgres';

export interface ClusterEndpoint {
  readonly host: string;
  readonly port: number;
}

/** The running PostgreSQL of the data folder, or undefined when none runs. */
export function runningCluster(dataDir: string): ClusterEndpoint | undefined {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return undefined;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!(pid > 0) || !(port > 0)) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  const socketDir = lines[4]?.trim();
  return { host: socketDir ? socketDir : '127.0.0.1', port };
}

export async function connectSuperuser(dataDir: string, endpoint: ClusterEndpoint, database = 'registry'): Promise<pg.Client> {
  const credentials = readCredentials(dataDir);
  if (!credentials) throw new Error(`${dataDir} holds no credentials file: is it a registry data folder?`);
  const client = new pg.Client({ ...endpoint, user: credentials.superuser.user, password: credentials.superuser.password, database });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const journalFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations', 'meta', '_journal.json');

/** The last migration applied to the registry database (its tag) and how many are applied. */
export async function migrationLevel(client: pg.Client): Promise<{ applied: number; last: string | null }> {
  const { rows } = await client.query<{ applied: number; last: string | null }>(
    'SELECT count(*)::int AS applied, max(created_at)::text AS last FROM drizzle.__drizzle_migrations',
  );
  const row = rows[0] ?? { applied: 0, last: null };
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { when: number; tag: string }[] };
  const tag = journal.entries.find((entry) => String(entry.when) === row.last)?.tag ?? row.last;
  return { applied: row.applied, last: tag };
}
