// The parts of the backups that need no cluster: the encryption format, the key format, which
// backups the daily job keeps and which archived WAL it deletes.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { decryptStream, encryptStream, parseBackupKey } from '../../src/server/backup/backup-crypto';
import { backupFileName, walSegments } from '../../src/server/backup/base-backup';
import { backupsToKeep, pruneBackups, pruneWal } from '../../src/server/backup/retention';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-backup-units-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function collect(source: Readable, ...stages: NodeJS.ReadWriteStream[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await pipeline([source, ...stages, sink]);
  return Buffer.concat(chunks);
}

const MB = 1024 * 1024;

describe('backup encryption (AES-256-GCM in chunks)', () => {
  const key = randomBytes(32);

  it.each([0, 1, MB, MB + 1, 3 * MB + 17])('round-trips %i bytes written in pieces', async (size) => {
    const plain = randomBytes(size);
    const pieces = [plain.subarray(0, Math.floor(size / 3)), plain.subarray(Math.floor(size / 3))];
    const sealed = await collect(Readable.from(pieces), encryptStream(key));
    expect(sealed.subarray(0, 8).toString('latin1')).toBe('LRBACKUP');
    if (size >= 64) expect(sealed.includes(plain.subarray(0, 64))).toBe(false);
    expect((await collect(Readable.from([sealed]), decryptStream(key))).equals(plain)).toBe(true);
  });

  it('refuses a file cut at a chunk boundary, a changed byte, and another key', async () => {
    const sealed = await collect(Readable.from([randomBytes(2 * MB + 5)]), encryptStream(key));
    const header = 24;
    const firstChunk = header + MB + 16;
    await expect(collect(Readable.from([sealed.subarray(0, firstChunk)]), decryptStream(key))).rejects.toThrow('failed its authentication');
    const changed = Buffer.from(sealed);
    changed[firstChunk + 100]! ^= 1;
    await expect(collect(Readable.from([changed]), decryptStream(key))).rejects.toThrow('failed its authentication');
    await expect(collect(Readable.from([sealed]), decryptStream(randomBytes(32)))).rejects.toThrow('another BACKUP_KEY');
  });

  it('takes BACKUP_KEY as 64 hex digits or base64 of 32 bytes, and nothing else', () => {
    const bytes = randomBytes(32);
    expect(parseBackupKey(bytes.toString('hex')).equals(bytes)).toBe(true);
    expect(parseBackupKey(bytes.toString('base64')).equals(bytes)).toBe(true);
    for (const wrong of ['secret', bytes.toString('hex').slice(2), randomBytes(16).toString('base64'), `${bytes.toString('hex')}00`]) {
      expect(() => parseBackupKey(wrong)).toThrow('BACKUP_KEY must be 32 bytes');
    }
  });
});

describe('retention', () => {
  const at = (iso: string) => ({ name: backupFileName(new Date(iso), false), time: new Date(iso) });

  it('keeps the newest backup of each of the last 7 days and 4 weeks that have one', () => {
    // Daily at 02:30 for 40 days up to Friday 2026-11-27, and a second backup on the last day.
    const backups = Array.from({ length: 40 }, (_, index) => at(new Date(Date.UTC(2026, 10, 27 - index, 2, 30)).toISOString()));
    backups.push(at('2026-11-27T12:00:00Z'));
    const keep = backupsToKeep(backups, 7, 4);
    const kept = [...keep].map((name) => name.slice(9, 17)).sort();
    // 7 days (21 to 27 Nov, the 27th's later backup) and the newest of the 3 weeks before (Sundays 22, 15 and 8 Nov; 16 to 22 Nov is one of them).
    expect(kept).toEqual(['20261108', '20261115', '20261121', '20261122', '20261123', '20261124', '20261125', '20261126', '20261127']);
    expect(keep.has(backupFileName(new Date('2026-11-27T12:00:00Z'), false))).toBe(true);
    expect(keep.has(backupFileName(new Date('2026-11-27T02:30:00Z'), false))).toBe(false);
  });

  it('deletes the backups past retention and the WAL before the oldest kept one, keeping timeline history', () => {
    const folder = path.join(tmp, 'backups');
    const archive = path.join(tmp, 'wal-archive');
    fs.mkdirSync(folder);
    fs.mkdirSync(archive);
    const names = ['2026-11-20T02:30:00Z', '2026-11-26T02:30:00Z', '2026-11-27T02:30:00Z'].map((iso, index) => {
      const name = backupFileName(new Date(iso), false);
      fs.writeFileSync(path.join(folder, name), 'x');
      fs.writeFileSync(path.join(folder, `${name}.json`), JSON.stringify({ startWalFile: `00000001000000000000000${index + 2}` }));
      return name;
    });
    for (const wal of walSegments('000000010000000000000001', '000000010000000000000005', 16 * MB))
      fs.writeFileSync(path.join(archive, wal), '');
    fs.writeFileSync(path.join(archive, '00000002.history'), '');
    fs.writeFileSync(path.join(archive, '000000010000000000000002.00000028.backup'), '');

    const result = pruneBackups(folder, archive, 2, 0);
    expect(result.deletedBackups).toEqual([names[0]]);
    expect(fs.readdirSync(folder).sort()).toEqual([names[1], `${names[1]}.json`, names[2], `${names[2]}.json`]);
    expect(fs.readdirSync(archive).sort()).toEqual([
      '000000010000000000000003',
      '000000010000000000000004',
      '000000010000000000000005',
      '00000002.history',
    ]);
    expect(pruneWal(archive, '000000020000000000000005')).toBe(2);
  });

  it('names the WAL segments of a backup across a log file boundary', () => {
    expect(walSegments('0000000100000000000000FE', '000000010000000100000001', 16 * MB)).toEqual([
      '0000000100000000000000FE',
      '0000000100000000000000FF',
      '000000010000000100000000',
      '000000010000000100000001',
    ]);
  });
});
