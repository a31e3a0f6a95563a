// The embedded PostgreSQL's data folder recovers by itself: from a
// postmaster.pid naming another live program, and from a PostgreSQL orphaned when only its
// registry server was killed; it still refuses a folder whose server lives.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_FILE, startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/server/db/embedded-postgres';

let dataDir: string;
const running: EmbeddedDatabase[] = [];
const children: ChildProcess[] = [];

const postmasterPid = () => Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^State:\s+[ZX]/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};

async function answers(database: EmbeddedDatabase): Promise<boolean> {
  const client = new pg.Client({ connectionString: database.connectionString('postgres') });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('select 1 as one')).rows[0]?.one === 1;
  } finally {
    await client.end();
  }
}

/** A live program that is not PostgreSQL (a sleeping node). */
function liveProgram(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  children.push(child);
  if (!child.pid) throw new Error('no child pid');
  return child.pid;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-recovery-'));
  // Running as root, initdb runs as the postgres user, who must reach the folder.
  fs.chmodSync(dataDir, 0o755);
  const first = await startEmbeddedPostgres(dataDir);
  await first.stop();
});

afterAll(async () => {
  for (const database of running) await database.stop().catch(() => undefined);
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded PostgreSQL data folder', () => {
  it('starts over a postmaster.pid that names another live program', async () => {
    fs.writeFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), `${liveProgram()}\n${dataDir}\n`);
    const database = await startEmbeddedPostgres(dataDir);
    running.push(database);
    expect(await answers(database)).toBe(true);
    await database.stop();
    running.pop();
  }, 60_000);

  it('shuts down a PostgreSQL whose registry server died, then starts', async () => {
    const orphaned = await startEmbeddedPostgres(dataDir);
    running.push(orphaned);
    const orphanPid = postmasterPid();
    // As if the server that started it was SIGKILLed: its pid names a process that is gone.
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => gone.on('exit', resolve));
    fs.writeFileSync(path.join(dataDir, OWNER_FILE), `${gone.pid}\n`);

    const database = await startEmbeddedPostgres(dataDir);
    running.push(database);
    expect(alive(orphanPid)).toBe(false);
    expect(postmasterPid()).not.toBe(orphanPid);
    expect(await answers(database)).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8').trim()).toBe(String(process.pid));
    await database.stop();
    running.length = 0;
  }, 90_000);

  it('refuses the folder while the server that runs its PostgreSQL lives', async () => {
    const inUse = await startEmbeddedPostgres(dataDir);
    running.push(inUse);
    const pid = postmasterPid();
    fs.writeFileSync(path.join(dataDir, OWNER_FILE), `${liveProgram()}\n`);
    await expect(startEmbeddedPostgres(dataDir)).rejects.toThrow();
    expect(alive(pid)).toBe(true);
    expect(await answers(inUse)).toBe(true);
  }, 90_000);
});
