// An online base backup of the embedded cluster (docs/decisions/0014-backups.md): PostgreSQL's
// low-level API on one connection (pg_backup_start, the data folder copied while it runs,
// pg_backup_stop's backup_label and tablespace_map), the WAL from the start to the stop position
// added to the tar's pg_wal so the file alone restores, then a manifest. One gzip tar, encrypted
// when a key is given. The copy reads files as they change: WAL replay from the backup's start
// makes them consistent, as it does for pg_basebackup.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar, { type Header, type Pack } from 'tar-stream';
import { CREDENTIALS_FILE, startEmbeddedPostgres, WAL_ARCHIVE_DIR } from '../db/embedded-postgres';
import { encryptStream } from './backup-crypto';
import { connectSuperuser, migrationLevel, runningCluster } from './cluster';

export const BACKUPS_DIR = 'backups';
/** The manifest: the tar's last entry, and a copy beside the file (`<file>.json`) read without the key. */
export const MANIFEST_ENTRY = 'backup-manifest.json';
const DATABASE_FOLDER = 'postgres';

export interface ManifestFile {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

export interface BackupManifest {
  readonly format: 'loan-registry-base-backup';
  readonly version: 1;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly postgresVersion: string;
  readonly migrations: { readonly applied: number; readonly last: string | null };
  readonly timeline: number;
  readonly startLsn: string;
  readonly stopLsn: string;
  /** The first WAL segment a restore of this backup needs: the archive keeps it and what follows. */
  readonly startWalFile: string;
  readonly stopWalFile: string;
  /** The archive of the backed-up folder, where a restore on the same machine finds later WAL. */
  readonly walArchive: string;
  readonly encrypted: boolean;
  readonly compression: 'gzip';
  /** Bytes of the files in the tar. */
  readonly bytes: number;
  readonly files: readonly ManifestFile[];
}

/** The sidecar: the manifest without its file list, and the backup file's own size and hash. */
export interface BackupSummary extends Omit<BackupManifest, 'files'> {
  readonly file: { readonly name: string; readonly bytes: number; readonly sha256: string };
  readonly fileCount: number;
}

export interface BackupOptions {
  readonly dataDir: string;
  /** Default DATA_DIR/backups. */
  readonly outDir?: string;
  /** Encrypt with this key (BACKUP_KEY, parsed). */
  readonly key?: Buffer;
  readonly log?: (message: string) => void;
}

export interface BackupResult {
  readonly file: string;
  readonly summary: BackupSummary;
  readonly seconds: number;
}

/** Folders whose contents a base backup leaves out (PostgreSQL rebuilds them), as pg_basebackup does. */
const EMPTIED_FOLDERS = new Set([
  'pg_stat_tmp',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_subtrans',
  'pg_wal',
]);
const SKIPPED_FILES = new Set([
  'postmaster.pid',
  'postmaster.opts',
  'backup_label',
  'tablespace_map',
  'backup_manifest',
  'current_logfiles',
  'pg_internal.init',
  'recovery.signal',
  'standby.signal',
]);
const skipped = (name: string) => SKIPPED_FILES.has(name) || name.startsWith('pgsql_tmp') || name.startsWith('.s.PGSQL.');

const timestampName = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
export const backupFileName = (date: Date, encrypted: boolean) => `registry-${timestampName(date)}.tar.gz${encrypted ? '.enc' : ''}`;
export const BACKUP_FILE_PATTERN = /^registry-(\d{8}T\d{6}Z)\.tar\.gz(\.enc)?$/;

/** Backs up the registry of DATA_DIR, starting its PostgreSQL for the time of the backup when no server runs it. */
export async function backupDataDir(options: BackupOptions): Promise<BackupResult> {
  const dataDir = path.resolve(options.dataDir);
  if (!fs.existsSync(path.join(dataDir, DATABASE_FOLDER, 'PG_VERSION'))) throw new Error(`${dataDir} holds no registry database.`);
  const endpoint = runningCluster(dataDir);
  if (endpoint) return backupCluster(dataDir, endpoint, options);
  options.log?.('No server runs this data folder: starting its PostgreSQL for the backup.');
  const embedded = await startEmbeddedPostgres(dataDir);
  try {
    const started = runningCluster(dataDir);
    if (!started) throw new Error('PostgreSQL started but wrote no postmaster.pid.');
    return await backupCluster(dataDir, started, options);
  } finally {
    await embedded.stop();
  }
}

async function backupCluster(dataDir: string, endpoint: { host: string; port: number }, options: BackupOptions): Promise<BackupResult> {
  const began = performance.now();
  const log = options.log ?? (() => undefined);
  const startedAt = new Date();
  const encrypted = options.key !== undefined;
  const outDir = path.resolve(options.outDir ?? path.join(dataDir, BACKUPS_DIR));
  fs.mkdirSync(outDir, { recursive: true, mode: 0o700 });
  const name = backupFileName(startedAt, encrypted);
  const file = path.join(outDir, name);
  const partial = `${file}.partial`;
  const client = await connectSuperuser(dataDir, endpoint);
  try {
    const settings = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name IN ('server_version', 'wal_level', 'archive_mode', 'wal_segment_size')",
    );
    const setting = (key: string) => settings.rows.find((row) => row.name === key)?.setting ?? '';
    if (setting('wal_level') === 'minimal' || setting('archive_mode') === 'off') {
      throw new Error(
        'This PostgreSQL runs without WAL archiving: restart the registry server once (it turns archiving on), then back up.',
      );
    }
    const migrations = await migrationLevel(client);
    const walArchive = path.join(dataDir, WAL_ARCHIVE_DIR);

    // fast: an immediate checkpoint, not one spread over minutes.
    const start = await client.query<{ lsn: string; walfile: string }>(
      'SELECT lsn::text, pg_walfile_name(lsn) AS walfile FROM pg_backup_start($1, fast => true) AS lsn',
      [`registry ${startedAt.toISOString()}`],
    );
    const startLsn = start.rows[0]!.lsn;
    const startWalFile = start.rows[0]!.walfile;
    log(`Backup started at WAL ${startLsn}.`);

    const files: ManifestFile[] = [];
    const pack = tar.pack();
    const output = new FileHash();
    const written = pipeline(
      pack as unknown as Readable,
      createGzip({ level: 1 }),
      ...(options.key ? [encryptStream(options.key)] : []),
      output,
      fs.createWriteStream(partial, { mode: 0o600 }),
    );
    written.catch(() => undefined);
    try {
      await addFolder(pack, path.join(dataDir, DATABASE_FOLDER), DATABASE_FOLDER, files);
      await addFile(pack, path.join(dataDir, CREDENTIALS_FILE), CREDENTIALS_FILE, files);

      // wait_for_archive: every segment up to the stop position is in the archive when it returns.
      const stop = await client.query<{ lsn: string; labelfile: string; spcmapfile: string | null; walfile: string }>(
        'SELECT lsn::text, labelfile, spcmapfile, pg_walfile_name(lsn) AS walfile FROM pg_backup_stop(wait_for_archive => true)',
      );
      const { lsn: stopLsn, labelfile, spcmapfile, walfile: stopWalFile } = stop.rows[0]!;
      if (spcmapfile && spcmapfile.trim() !== '')
        throw new Error('The cluster has tablespaces outside its data folder: this backup does not copy them.');
      await addBuffer(pack, `${DATABASE_FOLDER}/backup_label`, Buffer.from(labelfile), files);
      const timeline = Number.parseInt(startWalFile.slice(0, 8), 16);
      for (const segment of walSegments(startWalFile, stopWalFile, Number(setting('wal_segment_size')))) {
        await addFile(pack, path.join(walArchive, segment), `${DATABASE_FOLDER}/pg_wal/${segment}`, files, { required: true });
      }
      // A folder restored before (a later timeline) needs its timeline's history to replay.
      for (let line = timeline; line > 1; line -= 1) {
        const history = `${line.toString(16).toUpperCase().padStart(8, '0')}.history`;
        if (fs.existsSync(path.join(walArchive, history)))
          await addFile(pack, path.join(walArchive, history), `${DATABASE_FOLDER}/pg_wal/${history}`, files);
      }
      log(`Backup stopped at WAL ${stopLsn}.`);
      const manifest: BackupManifest = {
        format: 'loan-registry-base-backup',
        version: 1,
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        postgresVersion: setting('server_version'),
        migrations,
        timeline,
        startLsn,
        stopLsn,
        startWalFile,
        stopWalFile,
        walArchive,
        encrypted,
        compression: 'gzip',
        bytes: files.reduce((sum, entry) => sum + entry.bytes, 0),
        files,
      };
      await entry(pack, { name: MANIFEST_ENTRY, size: 0, mode: 0o600 }, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`));
      pack.finalize();
      await written;
      const { files: list, ...rest } = manifest;
      const summary: BackupSummary = { ...rest, fileCount: list.length, file: { name, bytes: output.bytes, sha256: output.digest() } };
      await fsyncFile(partial);
      fs.renameSync(partial, file);
      writeSummary(file, summary);
      return { file, summary, seconds: (performance.now() - began) / 1000 };
    } catch (error) {
      pack.destroy(error as Error);
      await written.catch(() => undefined);
      fs.rmSync(partial, { force: true });
      throw error;
    }
  } finally {
    // Ending the session also ends a backup that did not reach pg_backup_stop.
    await client.end().catch(() => undefined);
  }
}

export const summaryFile = (backupFile: string) => `${backupFile}.json`;

function writeSummary(backupFile: string, summary: BackupSummary): void {
  fs.writeFileSync(summaryFile(backupFile), `${JSON.stringify(summary, null, 2)}\n`, { mode: 0o600 });
}

/** The WAL segment names from `first` to `last`, both included (same timeline). */
export function walSegments(first: string, last: string, segmentBytes: number): string[] {
  const perLog = 0x1_0000_0000 / segmentBytes;
  const timeline = first.slice(0, 8);
  const number = (name: string) => Number.parseInt(name.slice(8, 16), 16) * perLog + Number.parseInt(name.slice(16, 24), 16);
  const names: string[] = [];
  for (let segment = number(first); segment <= number(last); segment += 1) {
    const hex = (value: number) => value.toString(16).toUpperCase().padStart(8, '0');
    names.push(`${timeline}${hex(Math.floor(segment / perLog))}${hex(segment % perLog)}`);
  }
  return names;
}

/** The file's bytes and SHA-256 as they pass. */
class FileHash extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: () => void) {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    this.push(chunk);
    callback();
  }
  digest = () => this.hash.digest('hex');
}

function entry(pack: Pack, header: Partial<Header> & Pick<Header, 'name'>, body?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error | null) => (error ? reject(error) : resolve());
    pack.entry({ ...header, size: body?.length ?? 0 }, body ?? Buffer.alloc(0), done);
  });
}

async function addBuffer(pack: Pack, name: string, body: Buffer, files: ManifestFile[]): Promise<void> {
  await entry(pack, { name, mode: 0o600 }, body);
  files.push({ path: name, bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
}

async function addFolder(pack: Pack, folder: string, name: string, files: ManifestFile[]): Promise<void> {
  await entry(pack, { name, type: 'directory', mode: 0o700 });
  const base = path.basename(folder);
  if (EMPTIED_FOLDERS.has(base) && name !== DATABASE_FOLDER) return;
  let children: fs.Dirent[];
  try {
    children = await fs.promises.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const child of children.sort((a, b) => a.name.localeCompare(b.name))) {
    if (skipped(child.name)) continue;
    const source = path.join(folder, child.name);
    const target = `${name}/${child.name}`;
    if (child.isDirectory()) await addFolder(pack, source, target, files);
    else if (child.isFile()) await addFile(pack, source, target, files);
    // Sockets, symbolic links (tablespaces, refused at the stop) and the like are not copied.
  }
}

/**
 * One file as it is now: the size read first is the size written (a file that grew is cut, one
 * that shrank is padded with zeros; WAL replay repairs both). A file deleted meanwhile is left out.
 */
async function addFile(
  pack: Pack,
  source: string,
  name: string,
  files: ManifestFile[],
  options: { required?: boolean } = {},
): Promise<void> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(source, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !options.required) return;
    throw error;
  }
  try {
    const { size, mode } = await handle.stat();
    const hash = createHash('sha256');
    let stream!: Writable;
    const done = new Promise<void>((resolve, reject) => {
      stream = pack.entry({ name, size, mode: mode & 0o777 }, (error) => (error ? reject(error) : resolve())) as unknown as Writable;
    });
    let remaining = size;
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    while (remaining > 0) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, remaining), size - remaining);
      const chunk = bytesRead > 0 ? Buffer.from(buffer.subarray(0, bytesRead)) : Buffer.alloc(Math.min(buffer.length, remaining));
      hash.update(chunk);
      remaining -= chunk.length;
      if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
    }
    stream.end();
    await done;
    files.push({ path: name, bytes: size, sha256: hash.digest('hex') });
  } finally {
    await handle.close();
  }
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export const defaultBackupsDir = (dataDir: string) => path.join(path.resolve(dataDir), BACKUPS_DIR);
