// Scale beyond one machine: two server processes on one PostgreSQL (DATABASE_URL), on two
// ports, share sessions (and their end, heard through LISTEN/NOTIFY), sign-in throttles and jobs.
// Server 1 runs no job workers (JOB_WORKERS=false): what it enqueues, server 2's worker finishes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobListSchema, jobSchema, type Job } from '../../src/contract/jobs';
import { PATHS } from '../../src/contract/paths';
import { usersMeSchema } from '../../src/contract/users';
import { seedDemoData } from '../../src/server/seed';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import {
  httpCall,
  postSignIn,
  signalServer,
  signInOverHttp,
  startServerProcess,
  waitUntil,
  type ServerProcess,
} from './support/server-process';

/** Well under the caller cache's 10 s: a revoked session must be refused because the change was heard, not because the cache aged. */
const REVOCATION_HEARD_WITHIN_MS = 3_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-two-servers-'));
let database: TestDatabase;
let first: ServerProcess;
let second: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.owner.db, { loans: 30 });
  const env = (jobWorkers: boolean) => ({
    DATABASE_URL: database.url,
    MIGRATION_DATABASE_URL: database.ownerUrl,
    DATA_DIR: path.join(tmp, 'unused-data'),
    PORT: '0',
    STATIC_DIR: path.join(tmp, 'no-dist'),
    // The per-address limit stays out of the way: the throttle under test is the per-account one.
    SIGN_IN_RATE_LIMIT: '1000',
    JOB_WORKERS: String(jobWorkers),
  });
  // At once, as an orchestrator starts replicas: migrations, grants and the job schema take turns.
  [first, second] = await Promise.all([startServerProcess(env(false)), startServerProcess(env(true))]);
}, 120_000);

afterAll(async () => {
  for (const server of [first, second]) if (server) await signalServer(server, 'SIGTERM');
  await database?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const me = (server: ServerProcess, cookie: string) => httpCall(server.url, PATHS.usersMe, { cookie });

describe('two servers on one PostgreSQL', () => {
  it('listen on two ports', () => {
    expect(first.url).not.toBe(second.url);
  });

  it('share sessions: signed in on one, used on the other; signed out on the other, refused on the first at once', async () => {
    const cookie = await signInOverHttp(first.url, 'user@registry.test');
    const onFirst = await me(first, cookie);
    const onSecond = await me(second, cookie);
    expect(onFirst.status).toBe(200);
    expect(onSecond.status, onSecond.body).toBe(200);
    expect(usersMeSchema.parse(onSecond.json()).user.id).toBe(usersMeSchema.parse(onFirst.json()).user.id);
    // Without a session, neither knows the caller.
    expect((await me(second, 'registry_session=not-a-session')).status).toBe(401);

    const signedOut = await httpCall(second.url, PATHS.logout, { method: 'POST', cookie });
    expect(signedOut.status).toBe(303);
    expect((await me(second, cookie)).status).toBe(401);
    // The first server had the caller cached a moment ago; the database's NOTIFY empties its cache.
    const began = Date.now();
    await waitUntil(
      'the first server to refuse the ended session',
      async () => (await me(first, cookie)).status === 401,
      REVOCATION_HEARD_WITHIN_MS,
    );
    expect(Date.now() - began).toBeLessThan(REVOCATION_HEARD_WITHIN_MS);
  });

  it(
    'share jobs: a batch download started through the server without workers is finished by the other one',
    { timeout: 90_000 },
    async () => {
      const cookie = await signInOverHttp(first.url, 'admin@registry.test');
      const started = await httpCall(first.url, PATHS.jobs, { method: 'POST', cookie, json: { type: 'BATCH_DOWNLOAD_AOMS', filters: {} } });
      expect(started.status, started.body).toBe(202);
      const job = jobSchema.parse(started.json());
      expect(job.total).toBeGreaterThan(0);

      let seen: Job | undefined;
      await waitUntil(
        'the job to finish',
        async () => {
          const listed = await httpCall(first.url, `${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS`, { cookie });
          seen = jobListSchema.parse(listed.json()).find((candidate) => candidate.jobId === job.jobId);
          return seen?.status === 'DONE' || seen?.status === 'FAILED';
        },
        60_000,
      );
      expect(seen).toMatchObject({ status: 'DONE', progress: job.total, total: job.total });
      // The zip the second server wrote is served by the first.
      const zip = await httpCall(first.url, `${PATHS.documentsZip}?jobId=${job.jobId}`, { cookie });
      expect(zip.status).toBe(200);
      expect(zip.headers['content-type']).toContain('zip');
    },
  );

  it('share the per-account sign-in throttle: 5 failures on one server, then the right password on the other is 429', async () => {
    const email = 'ops@registry.test';
    for (let attempt = 1; attempt <= 5; attempt++) {
      const failed = await postSignIn(first.url, email, `wrong password ${attempt}`);
      expect(failed.status).toBe(401);
    }
    const throttled = await postSignIn(second.url, email);
    expect(throttled.status).toBe(429);
    // The throttle is the account's, not the address's: another account signs in from here.
    const other = await postSignIn(second.url, 'unregistered@registry.test');
    expect(other.status).toBe(303);
  });
});
