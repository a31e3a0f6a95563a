// `npm run backup` for a DATABASE_URL deployment: the cluster is not ours to copy file by file,
// so the backup is a logical dump by the cluster's own pg_dump, and only one of the server's
// major version (Debian's client tools are older than the PostgreSQL 18 the registry runs on).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { encryptStream } from './backup-crypto';

export class DumpUnavailable extends Error {}

/** The major version of the pg_dump on PATH, or undefined when there is none. */
export function pgDumpMajor(): number | undefined {
  const result = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(result.stdout);
  return match ? Number(match[1]) : undefined;
}

export async function serverMajor(connectionString: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>("SELECT current_setting('server_version_num') AS version");
    return Math.floor(Number(rows[0]!.version) / 10000);
  } finally {
    await client.end();
  }
}

export interface DumpOptions {
  readonly connectionString: string;
  readonly outDir: string;
  readonly key?: Buffer;
}

export async function logicalDump(options: DumpOptions): Promise<{ file: string; bytes: number; seconds: number }> {
  const began = performance.now();
  const server = await serverMajor(options.connectionString);
  const dump = pgDumpMajor();
  if (dump === undefined) {
    throw new DumpUnavailable(
      `No pg_dump on PATH: nothing was backed up. This registry uses DATABASE_URL (PostgreSQL ${server}), whose backups are the cluster's own: ` +
        `install pg_dump ${server} (e.g. postgresql-client-${server}) and run this again, or use pgBackRest or your provider's snapshots (README, Backups).`,
    );
  }
  if (dump !== server) {
    throw new DumpUnavailable(
      `pg_dump on PATH is version ${dump} and the server is PostgreSQL ${server}: nothing was backed up. ` +
        `Install pg_dump ${server} (e.g. postgresql-client-${server}), or use pgBackRest or your provider's snapshots (README, Backups).`,
    );
  }
  fs.mkdirSync(options.outDir, { recursive: true, mode: 0o700 });
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const file = path.join(path.resolve(options.outDir), `registry-${stamp}.dump${options.key ? '.enc' : ''}`);
  const partial = `${file}.partial`;
  // The custom format is compressed and restores with pg_restore, table by table if need be.
  const child = spawn('pg_dump', ['--format=custom', '--no-password', options.connectionString], { stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? 1)));
  try {
    await pipeline([
      child.stdout as Readable,
      ...(options.key ? [encryptStream(options.key)] : []),
      fs.createWriteStream(partial, { mode: 0o600 }),
    ]);
    const code = await exited;
    if (code !== 0) throw new Error(`pg_dump failed (${code}): ${errors.trim()}`);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  fs.renameSync(partial, file);
  return { file, bytes: fs.statSync(file).size, seconds: (performance.now() - began) / 1000 };
}
