// `npm run restore -- FILE [--until TIME] [--wal-archive DIR]`: restores a backup of
// `npm run backup` into DATA_DIR (default .data), which must be empty or absent, and replays the
// archived WAL to its end or to TIME. Then `npm start` starts the restored registry as it is.
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { decryptStream } from '../src/server/backup/backup-crypto';
import { parseBackupSettings } from '../src/server/backup/backup-settings';
import { restoreBackup, RestoreRefused } from '../src/server/backup/restore';

const USAGE =
  'Usage: npm run restore -- FILE [--until TIME] [--wal-archive DIR]\n' +
  '  FILE               a backup file of npm run backup\n' +
  '  --until TIME       point in time recovery: replay only the transactions committed up to TIME\n' +
  '                     (ISO 8601 with a zone, e.g. 2026-11-27T14:05:00Z)\n' +
  "  --wal-archive DIR  archived WAL to replay (default: the backed-up folder's wal-archive, when it exists)\n" +
  '  --decrypt-to OUT   only decrypt FILE (an encrypted pg_dump of a DATABASE_URL deployment) into OUT, for pg_restore';

interface RestoreArgs {
  readonly file: string;
  readonly until: Date | undefined;
  readonly walArchive: string | undefined;
  readonly decryptTo: string | undefined;
}

function parseArgs(argv: readonly string[]): RestoreArgs {
  let file: string | undefined;
  let until: Date | undefined;
  let walArchive: string | undefined;
  let decryptTo: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const option = /^--(until|wal-archive|decrypt-to)(?:=(.*))?$/.exec(arg);
    if (option) {
      const value = option[2] ?? argv[++i];
      if (!value) throw new Error(`--${option[1]} needs a value.\n\n${USAGE}`);
      if (option[1] === 'wal-archive') walArchive = value;
      else if (option[1] === 'decrypt-to') decryptTo = value;
      else {
        // A time without a zone would be read in this machine's zone: ask for one.
        if (!/(Z|[+-]\d\d:?\d\d)$/i.test(value.trim()) || Number.isNaN(Date.parse(value))) {
          throw new Error(`--until ${value}: not a time with a zone, e.g. 2026-11-27T14:05:00Z`);
        }
        until = new Date(value);
      }
    } else if (arg.startsWith('--') || file) throw new Error(`Unknown argument: ${arg}\n\n${USAGE}`);
    else file = arg;
  }
  if (!file) throw new Error(`Which backup file?\n\n${USAGE}`);
  return { file, until, walArchive, decryptTo };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { key } = parseBackupSettings();
  if (args.decryptTo) {
    if (!key) throw new RestoreRefused('--decrypt-to needs BACKUP_KEY.');
    await pipeline(fs.createReadStream(args.file), decryptStream(key), fs.createWriteStream(args.decryptTo, { mode: 0o600, flags: 'wx' }));
    console.log(`Decrypted into ${args.decryptTo}: pg_restore --dbname=... ${args.decryptTo}`);
    return;
  }
  const dataDir = process.env.DATA_DIR ?? '.data';
  const result = await restoreBackup({ ...args, dataDir, key, log: (message) => console.log(message) });
  for (const line of result.recoveryReport) console.log(`  PostgreSQL: ${line}`);
  console.log(`Restored into ${dataDir} in ${result.seconds.toFixed(1)} s. Start it with npm start.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof RestoreRefused ? error.message : error);
  process.exit(1);
});
