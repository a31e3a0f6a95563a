// The restore drill: a registry server on its own embedded PostgreSQL, a write, an online backup
// (encrypted), another write, then restores into new folders (to the end of the archived WAL, to
// a time between the two writes, and from the backup file alone), each started as `npm start`
// would, and read through the API. Beside it the refusals: a non-empty target, a missing or wrong key.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { userParticipantsSchema } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import type { ProfileDraft } from '../../src/contract/profile';
import { usersMeSchema } from '../../src/contract/users';
import { backupDataDir, type BackupResult, type BackupSummary } from '../../src/server/backup/base-backup';
import { connectSuperuser, runningCluster } from '../../src/server/backup/cluster';
import { restoreBackup } from '../../src/server/backup/restore';
import { runBackupDatabase } from '../../src/server/jobs/backup-job';
import type { JobContext } from '../../src/server/jobs/job-runner';
import { httpCall, signalServer, signInOverHttp, startServerProcess, waitUntil, type ServerProcess } from './support/server-process';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-backup-'));
fs.chmodSync(tmp, 0o755);
const source = path.join(tmp, 'source');
const key = randomBytes(32);
const servers: ServerProcess[] = [];

const EMAIL = 'user@registry.test';
const contact = (name: string) => ({ type: 'LEGAL' as const, name, phoneNumber: '(415) 555-0101', email: 'legal@drill.test' });
const profile = (contacts: string[]): ProfileDraft => ({
  name: 'Drill Lending',
  phoneNumber: '(415) 555-0199',
  email: 'desk@drill.test',
  address: { street: '10 Market Street', street2: '', city: 'San Francisco', state: 'CA', zip: '94105' },
  url: 'https://drill.test',
  additionalContacts: contacts.map(contact),
});

let backup: BackupResult;
let adminOf = '';
/** After the backup and before the second write. */
let between: Date;

const serverEnv = (dataDir: string) => ({
  DATA_DIR: dataDir,
  PORT: '0',
  SEED_LOANS: '20',
  STATIC_DIR: path.join(tmp, 'no-dist'),
  SIGN_IN_RATE_LIMIT: '1000',
  BACKUP_SCHEDULE: 'off',
});

async function start(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess(serverEnv(dataDir), 120_000);
  servers.push(server);
  return server;
}

/** The names of the additional contacts of the organization the demo user administers, read through the API. */
async function contactsOn(server: ServerProcess): Promise<string[]> {
  const cookie = await signInOverHttp(server.url, EMAIL);
  const answer = await httpCall(server.url, PATHS.usersMe, { cookie, participantId: adminOf });
  expect(answer.status, answer.body).toBe(200);
  return usersMeSchema.parse(answer.json()).participant!.profileInfo.additionalContacts.map((entry) => entry.name);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  const server = await start(source);
  const cookie = await signInOverHttp(server.url, EMAIL);
  const me = usersMeSchema.parse((await httpCall(server.url, PATHS.usersMe, { cookie })).json());
  const memberships = userParticipantsSchema.parse((await httpCall(server.url, PATHS.userParticipants(me.user.id), { cookie })).json());
  for (const { participant } of memberships) {
    const roles = usersMeSchema.parse((await httpCall(server.url, PATHS.usersMe, { cookie, participantId: participant.id })).json()).user
      .roles;
    if (roles.includes('ORG_ADMIN')) adminOf = participant.id;
  }
  expect(adminOf).not.toBe('');
  const write = async (contacts: string[]) => {
    const answer = await httpCall(server.url, PATHS.participantProfile, {
      method: 'PATCH',
      cookie,
      participantId: adminOf,
      json: profile(contacts),
    });
    expect(answer.status, answer.body).toBe(200);
  };

  await write(['Before the backup']);
  backup = await backupDataDir({ dataDir: source, outDir: path.join(tmp, 'backups'), key });
  await pause(1000);
  between = new Date();
  await pause(1000);
  await write(['Before the backup', 'After the backup']);

  // The second write's segment goes to the archive now rather than at archive_timeout.
  const client = await connectSuperuser(source, runningCluster(source)!);
  try {
    const { rows } = await client.query<{ wal: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS wal');
    await waitUntil(
      'the switched WAL segment to be archived',
      async () => {
        const archived = await client.query<{ last: string | null }>('SELECT last_archived_wal AS last FROM pg_stat_archiver');
        return (archived.rows[0]?.last ?? '') >= rows[0]!.wal;
      },
      30_000,
    );
  } finally {
    await client.end();
  }
  await signalServer(server, 'SIGTERM');
}, 240_000);

afterAll(async () => {
  for (const server of servers) await signalServer(server, 'SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('writes an encrypted backup with a manifest of its files, the PostgreSQL version and the migration level', () => {
    expect(path.basename(backup.file)).toMatch(/^registry-\d{8}T\d{6}Z\.tar\.gz\.enc$/);
    expect(fs.readFileSync(backup.file).subarray(0, 8).toString('latin1')).toBe('LRBACKUP');
    expect(backup.summary).toMatchObject({ encrypted: true, postgresVersion: expect.stringMatching(/^18\./) as unknown });
    expect(backup.summary.migrations.last).toMatch(/^\d{4}_/);
    expect(backup.summary.fileCount).toBeGreaterThan(100);
    expect(backup.summary.file.bytes).toBe(fs.statSync(backup.file).size);
  });

  it('restores to the end of the archived WAL: both writes are there', async () => {
    const target = path.join(tmp, 'restored-full');
    await restoreBackup({ file: backup.file, dataDir: target, key });
    expect(fs.existsSync(path.join(target, 'postgres-credentials.json'))).toBe(true);
    const server = await start(target);
    expect(await contactsOn(server)).toEqual(['After the backup', 'Before the backup']);
    await signalServer(server, 'SIGTERM');
  }, 180_000);

  it('restores to a time between the two writes: only the first is there', async () => {
    const target = path.join(tmp, 'restored-between');
    const result = await restoreBackup({ file: backup.file, dataDir: target, key, until: between });
    expect(result.recoveryReport.join('\n')).toMatch(/recovery stopping before commit/);
    const server = await start(target);
    expect(await contactsOn(server)).toEqual(['Before the backup']);
    await signalServer(server, 'SIGTERM');
  }, 180_000);

  it('restores from the backup file alone (no archive, as on another machine): the state at the backup', async () => {
    const target = path.join(tmp, 'restored-alone');
    const noArchive = path.join(tmp, 'no-archive');
    fs.mkdirSync(noArchive);
    await restoreBackup({ file: backup.file, dataDir: target, key, walArchive: noArchive });
    const server = await start(target);
    expect(await contactsOn(server)).toEqual(['Before the backup']);
    await signalServer(server, 'SIGTERM');
  }, 180_000);

  it('refuses a non-empty target folder and leaves it untouched (npm run restore)', () => {
    const target = path.join(tmp, 'occupied');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'keep.txt'), 'mine');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/restore.ts', backup.file], {
      cwd: root,
      env: { ...process.env, DATA_DIR: target, BACKUP_KEY: key.toString('hex') },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('is not empty: a restore goes into an empty or absent data folder. Nothing was changed.');
    expect(fs.readdirSync(target)).toEqual(['keep.txt']);
    expect(fs.readFileSync(path.join(target, 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('refuses an encrypted backup without its key or with another one, and leaves no folder behind', async () => {
    const target = path.join(tmp, 'keyless');
    await expect(restoreBackup({ file: backup.file, dataDir: target })).rejects.toThrow('The backup is encrypted: set BACKUP_KEY');
    await expect(restoreBackup({ file: backup.file, dataDir: target, key: randomBytes(32) })).rejects.toThrow(
      'The backup was encrypted with another BACKUP_KEY.',
    );
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a backup whose bytes were changed', async () => {
    const damaged = path.join(tmp, 'damaged.tar.gz.enc');
    const bytes = fs.readFileSync(backup.file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    fs.writeFileSync(damaged, bytes);
    const target = path.join(tmp, 'from-damaged');
    await expect(restoreBackup({ file: damaged, dataDir: target, key })).rejects.toThrow('failed its authentication');
    expect(fs.existsSync(target)).toBe(false);
  });

  it("with DATABASE_URL, backs up nothing and says so when no pg_dump of the server's major version is on PATH", () => {
    const out = path.join(tmp, 'dumps');
    const run = (pathVariable: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', '--out', out], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: inject('postgresOwnerUrl'), PATH: pathVariable },
        encoding: 'utf8',
      });
    const emptyBin = path.join(tmp, 'empty-bin');
    fs.mkdirSync(emptyBin, { recursive: true });
    const without = run(emptyBin);
    expect(without.status).toBe(1);
    expect(without.stderr).toContain('No pg_dump on PATH: nothing was backed up.');
    const installed = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
    const major = /\(PostgreSQL\)\s+(\d+)/.exec(installed.stdout ?? '')?.[1];
    if (major && major !== '18') {
      const older = run(process.env.PATH ?? '');
      expect(older.status).toBe(1);
      expect(older.stderr).toContain(`pg_dump on PATH is version ${major} and the server is PostgreSQL 18: nothing was backed up.`);
    }
    expect(fs.existsSync(out) ? fs.readdirSync(out) : []).toEqual([]);
  });

  // Last: it prunes the archive the restores above replay.
  it('the daily job: scheduled on an embedded server, backs up into DATA_DIR/backups and prunes the WAL no kept backup needs', async () => {
    const server = await startServerProcess({ ...serverEnv(source), BACKUP_SCHEDULE: '15 3 * * *' }, 120_000);
    servers.push(server);
    const client = await connectSuperuser(source, runningCluster(source)!);
    try {
      const { rows } = await client.query<{ cron: string; dataDir: string }>(
        "SELECT cron, data->>'dataDir' AS \"dataDir\" FROM pgboss.schedule WHERE name = 'backup-database'",
      );
      expect(rows).toEqual([{ cron: '15 3 * * *', dataDir: source }]);
    } finally {
      await client.end();
    }
    const archive = path.join(source, 'wal-archive');
    const before = fs.readdirSync(archive).filter((name) => /^[0-9A-F]{24}$/.test(name));
    const logged: unknown[] = [];
    const context = { step: async () => undefined, log: { info: (entry: unknown) => logged.push(entry) } } as unknown as JobContext;
    await runBackupDatabase(context, { dataDir: source });
    const backups = fs.readdirSync(path.join(source, 'backups')).filter((name) => name.endsWith('.tar.gz'));
    expect(backups).toHaveLength(1);
    const summary = JSON.parse(fs.readFileSync(path.join(source, 'backups', `${backups[0]}.json`), 'utf8')) as BackupSummary;
    const after = fs.readdirSync(archive).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(after.every((name) => name.slice(8) >= summary.startWalFile.slice(8))).toBe(true);
    expect(before.some((name) => name.slice(8) < summary.startWalFile.slice(8))).toBe(true);
    await signalServer(server, 'SIGTERM');
  }, 180_000);
});
