// Restores a base backup (base-backup.ts) into an empty or absent DATA_DIR, then replays WAL:
// the backup's own, then the archive's, to its end or to a time (recovery_target_time). The
// recovery runs here, in a PostgreSQL started for it with the recovery settings on its command
// line only, so the folder left behind is an ordinary one that `npm start` starts as it is.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { postgresUserIds, startEmbeddedPostgres } from '../db/embedded-postgres';
import { decryptStream, HEADER_BYTES, isEncrypted } from './backup-crypto';
import { MANIFEST_ENTRY, type BackupManifest } from './base-backup';

export interface RestoreOptions {
  readonly file: string;
  readonly dataDir: string;
  /** Replay up to this time (the last transaction committed at or before it); absent: all WAL there is. */
  readonly until?: Date;
  /** Where archived WAL is read; default the backed-up folder's archive when it exists. */
  readonly walArchive?: string;
  readonly key?: Buffer;
  readonly log?: (message: string) => void;
}

export interface RestoreResult {
  readonly manifest: BackupManifest;
  readonly seconds: number;
  /** What PostgreSQL said about where the replay stopped. */
  readonly recoveryReport: string[];
}

export class RestoreRefused extends Error {}

/** True when the folder is absent or holds nothing. */
export function isEmptyFolder(folder: string): boolean {
  if (!fs.existsSync(folder)) return true;
  return fs.statSync(folder).isDirectory() && fs.readdirSync(folder).length === 0;
}

/** A time as recovery_target_time reads it, unambiguous in every time zone. */
export const recoveryTime = (date: Date): string => date.toISOString().replace('T', ' ').replace('Z', '+00');

const shellWord = (text: string): string => `'${text.replaceAll("'", `'\\''`).replaceAll('%', '%%')}'`;

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const began = performance.now();
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  if (!isEmptyFolder(dataDir)) {
    throw new RestoreRefused(`${dataDir} is not empty: a restore goes into an empty or absent data folder. Nothing was changed.`);
  }
  if (!fs.existsSync(options.file)) throw new RestoreRefused(`${options.file}: no such backup file.`);
  const created = !fs.existsSync(dataDir);
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const manifest = await extract(options.file, dataDir, options.key);
    log(`Extracted the backup of ${manifest.startedAt} (PostgreSQL ${manifest.postgresVersion}, migration ${manifest.migrations.last}).`);

    const archive = options.walArchive ?? (fs.existsSync(manifest.walArchive) ? manifest.walArchive : undefined);
    if (archive && path.resolve(archive).startsWith(`${dataDir}${path.sep}`))
      throw new RestoreRefused('The WAL archive to replay cannot be inside the folder restored into.');
    log(archive ? `Replaying WAL from the backup, then from ${archive}.` : 'No WAL archive: replaying the WAL in the backup only.');
    const databaseDir = path.join(dataDir, 'postgres');
    fs.writeFileSync(path.join(databaseDir, 'recovery.signal'), '');
    const ids = postgresUserIds();
    if (ids) chownTree(databaseDir, ids.uid, ids.gid);

    const report: string[] = [];
    const settings: Record<string, string> = {
      // A missing segment ends the replay: cp fails and PostgreSQL moves on to pg_wal, then stops.
      restore_command: archive ? `cp ${shellWord(path.resolve(archive))}/%f %p` : 'false',
      recovery_target_action: 'promote',
      // No read-only connections during the replay: the start below waits for the promoted server.
      hot_standby: 'off',
    };
    if (options.until) settings.recovery_target_time = recoveryTime(options.until);
    const database = await startEmbeddedPostgres(dataDir, {
      settings,
      log: (line) => {
        for (const text of String(line).split('\n')) {
          if (/recovery stopping|last completed transaction|consistent recovery state|redo done|selected new timeline/.test(text))
            report.push(text.trim());
        }
      },
    });
    await database.stop();
    return { manifest, seconds: (performance.now() - began) / 1000, recoveryReport: report };
  } catch (error) {
    // What the restore wrote goes, so the folder can take another attempt.
    if (created) fs.rmSync(dataDir, { recursive: true, force: true });
    else for (const entry of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
    throw error;
  }
}

function chownTree(folder: string, uid: number, gid: number): void {
  fs.chownSync(folder, uid, gid);
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) chownTree(child, uid, gid);
    else fs.chownSync(child, uid, gid);
  }
}

async function firstBytes(file: string, count: number): Promise<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    const { bytesRead } = await handle.read(buffer, 0, count, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Writes the tar's files under dataDir and checks each against the manifest (the last entry). */
async function extract(file: string, dataDir: string, key: Buffer | undefined): Promise<BackupManifest> {
  const encrypted = isEncrypted(await firstBytes(file, HEADER_BYTES));
  if (encrypted && !key) throw new RestoreRefused('The backup is encrypted: set BACKUP_KEY to the key it was made with.');
  const hashes = new Map<string, { bytes: number; sha256: string }>();
  let manifest: BackupManifest | undefined;
  const extractor = tar.extract();
  const consume = (async () => {
    for await (const entry of extractor) {
      const { name, type, mode } = entry.header;
      const parts = name.split('/');
      if (path.isAbsolute(name) || parts.includes('..')) throw new Error(`The backup holds an unsafe path: ${name}`);
      if (name === MANIFEST_ENTRY) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
        continue;
      }
      const target = path.join(dataDir, name);
      if (type === 'directory') {
        fs.mkdirSync(target, { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      if (type !== 'file') throw new Error(`The backup holds an unexpected entry: ${name}`);
      const hash = createHash('sha256');
      let bytes = 0;
      await pipeline(
        entry as unknown as Readable,
        async function* (source: AsyncIterable<unknown>) {
          for await (const chunk of source) {
            hash.update(chunk as Buffer);
            bytes += (chunk as Buffer).length;
            yield chunk;
          }
        },
        fs.createWriteStream(target, { mode: (mode ?? 0o600) & 0o700 }),
      );
      hashes.set(name, { bytes, sha256: hash.digest('hex') });
    }
  })();
  await Promise.all([
    pipeline([
      fs.createReadStream(file),
      ...(encrypted && key ? [decryptStream(key)] : []),
      createGunzip(),
      extractor as unknown as Writable,
    ]),
    consume,
  ]);
  if (!manifest) throw new Error('The backup file has no manifest: it is incomplete or not a registry backup.');
  for (const entry of manifest.files) {
    const found = hashes.get(entry.path);
    if (!found || found.sha256 !== entry.sha256 || found.bytes !== entry.bytes)
      throw new Error(`${entry.path} does not match the backup's manifest.`);
  }
  return manifest;
}
