// The batch download of assignment documents: POST v4 /jobs, GET v4 /jobs, GET v4 /loans/documents/zip,
// with the job run in-process by server.app.jobs.runPending (no sleeps).
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import { jobListSchema, jobSchema, MAX_UNFINISHED_JOBS, ZIP_MANIFEST_FILE, type Job } from '../../src/contract/jobs';
import { PATHS } from '../../src/contract/paths';
import { BATCH_DOWNLOAD_TEXTS } from '../../src/domain/texts';
import { eq, inArray, sql } from 'drizzle-orm';
import { jobFiles, jobs } from '../../src/server/db/schema';
import { batchDownloadAomsFailed, ZIP_CHUNK_BYTES } from '../../src/server/jobs/batch-download-job';
import { JOB_QUEUES } from '../../src/server/jobs/job-queues';
import { TOO_MANY_UNFINISHED_JOBS, ZIP_ACCESS_LOST } from '../../src/server/routes/jobs';
import { parseCsv } from './support/csv-parse';
import { insertLoan } from './support/loan-rows';
import { TEST_CONFIG, insertParticipant, insertUser } from './support/server-fixtures';
import { insertDocument, sha256, unzip } from './support/zip-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
const org = {} as Record<'home' | 'other', string>;
const cookies = {} as Record<'member' | 'colleague', string>;
const loans = {} as Record<'first' | 'second' | 'empty' | 'foreign', { id: string; uli: string }>;
/** The home organization's assignment documents (bytes and SHA-256), by loan. */
const assignments: { uli: string; fileName: string; hash: string; content: Buffer }[] = [];
let tamperedFileName: string;

function post(body: unknown, caller: Caller = server.anonymous) {
  return caller.post(PATHS.jobs, JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

/** The member acting for Home. */
let asMember: Caller;
const jobsUrl = `${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS`;
const zipUrl = (jobId?: string) => (jobId ? `${PATHS.documentsZip}?jobId=${jobId}` : PATHS.documentsZip);

async function start(body: unknown): Promise<Job> {
  const response = await post(body, asMember);
  expect(response.statusCode, response.body).toBe(202);
  return jobSchema.parse(response.json());
}

async function listJobs(caller: Caller = asMember): Promise<Job[]> {
  const response = await caller.get(jobsUrl);
  expect(response.statusCode, response.body).toBe(200);
  return jobListSchema.parse(response.json());
}

beforeAll(async () => {
  const db = server.db;
  org.home = (await insertParticipant(db, { name: 'Home Bank' })).id;
  org.other = (await insertParticipant(db, { name: 'Other Trust' })).id;
  await insertUser(db, {
    email: 'member@registry.test',
    memberships: [{ participantId: org.home, isDefault: true }, { participantId: org.other }],
  });
  await insertUser(db, { email: 'colleague@registry.test', memberships: [{ participantId: org.home, isDefault: true }] });
  cookies.member = (await server.signIn('member@registry.test')).cookie;
  cookies.colleague = (await server.signIn('colleague@registry.test')).cookie;
  asMember = server.caller(cookies.member, org.home);

  const owned = (participantId: string) => ({ parties: [{ role: 'OWNER', participantId }] });
  for (const name of ['first', 'second', 'empty'] as const) {
    const loan = await insertLoan(db, owned(org.home));
    loans[name] = { id: loan.id, uli: loan.uli };
  }
  const foreign = await insertLoan(db, owned(org.other));
  loans.foreign = { id: foreign.id, uli: foreign.uli };

  const add = async (loan: { id: string; uli: string }, values: { fileName: string; sizeBytes?: number }) => {
    const row = await insertDocument(db, { loanId: loan.id, ...values });
    assignments.push({ uli: loan.uli, fileName: values.fileName, hash: row.hash, content: row.content });
  };
  await add(loans.first, { fileName: 'assignment.pdf' });
  // Larger than a stored chunk: the zip spans several job_files rows.
  await add(loans.first, { fileName: 'assignment-recorded.pdf', sizeBytes: ZIP_CHUNK_BYTES + 300_000 });
  await add(loans.second, { fileName: 'assignment.pdf' });
  // Not assignments: never in the zip.
  await insertDocument(db, { loanId: loans.first.id, type: 'DEED', fileName: 'deed.pdf' });
  await insertDocument(db, { loanId: loans.foreign.id, fileName: 'foreign-assignment.pdf' });
  // Content that no longer matches its SHA-256.
  tamperedFileName = 'tampered.pdf';
  await insertDocument(db, { loanId: loans.second.id, fileName: tamperedFileName, hash: '0'.repeat(64) });
});

describe('POST v4 /jobs, GET v4 /jobs and GET v4 /loans/documents/zip', () => {
  let job: Job;

  it('starts a job for the selected loans the organization may see (a foreign id is left out) and answers 202 PENDING', async () => {
    job = await start({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.first.id, loans.second.id, loans.empty.id, loans.foreign.id] });
    // Three sound assignments and the tampered one, of the home loans; the foreign loan's is not counted.
    expect(job).toMatchObject({ type: 'BATCH_DOWNLOAD_AOMS', status: 'PENDING', progress: 0, total: 4, error: null });
    const [listed] = await listJobs();
    expect(listed).toMatchObject({ jobId: job.jobId, status: 'PENDING' });
  });

  it('has no zip before the job ran', async () => {
    expect((await asMember.get(zipUrl(job.jobId))).statusCode).toBe(404);
  });

  it('runs the job: DONE with progress equal to total', async () => {
    expect(await server.app.jobs.runPending(JOB_QUEUES.batchDownloadAoms)).toBe(1);
    const [listed] = await listJobs();
    expect(listed).toMatchObject({ jobId: job.jobId, status: 'DONE', progress: 4, total: 4, error: null });
  });

  it('a finished job is not delivered until its zip is asked for, then stays delivered (offered once)', async () => {
    expect((await listJobs())[0]).toMatchObject({ jobId: job.jobId, status: 'DONE', delivered: false });
    // Another user of the organization cannot see it, nor mark it.
    expect((await server.caller(cookies.colleague, org.home).get(zipUrl(job.jobId))).statusCode).toBe(404);
    expect((await listJobs())[0]?.delivered).toBe(false);
    expect((await asMember.get(zipUrl(job.jobId))).statusCode).toBe(200);
    expect((await listJobs())[0]?.delivered).toBe(true);
    const [row] = await server.db.select({ deliveredAt: jobs.deliveredAt }).from(jobs).where(eq(jobs.id, job.jobId));
    const first = row?.deliveredAt?.getTime();
    expect(first).toBeTypeOf('number');
    // Asked for again: still delivered, at the first time.
    expect((await asMember.get(zipUrl())).statusCode).toBe(200);
    const [again] = await server.db.select({ deliveredAt: jobs.deliveredAt }).from(jobs).where(eq(jobs.id, job.jobId));
    expect(again?.deliveredAt?.getTime()).toBe(first);
  });

  it("streams the zip: one folder per loan, its assignments, and a manifest whose SHA-256s are the documents'", async () => {
    const response = await asMember.get(zipUrl());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="assignments-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.zip"$/);
    const zip = response.rawPayload;
    expect(Number(response.headers['content-length'])).toBe(zip.length);
    const files = await unzip(zip);

    const expected = new Map(assignments.map((document) => [`${document.uli}/${document.fileName}`, document]));
    const manifest = parseCsv(files.get(ZIP_MANIFEST_FILE)?.toString('utf8') ?? '');
    expect(manifest[0]).toEqual(['Loan ULI', 'File Name', 'SHA-256']);
    const rows = manifest.slice(1).filter((row) => row.length > 1);
    expect(rows).toHaveLength(expected.size);
    for (const [uli, fileName, hash] of rows) {
      const path = `${uli}/${fileName}`;
      const document = expected.get(path);
      expect(document, path).toBeDefined();
      expect(hash).toBe(document?.hash);
      expect(sha256(files.get(path) ?? Buffer.alloc(0))).toBe(hash);
    }
    expect([...files.keys()].filter((name) => name.endsWith('.pdf')).sort()).toEqual([...expected.keys()].sort());
    // The tampered document is not handed out, but said to be left out.
    const leftOut = parseCsv(files.get('left-out.csv')?.toString('utf8') ?? '');
    expect(leftOut[1]).toEqual([loans.second.uli, tamperedFileName, BATCH_DOWNLOAD_TEXTS.hashMismatch]);
    expect([...files.keys()].some((name) => name.includes(loans.foreign.uli) || name.includes('deed'))).toBe(false);
  });

  it('refuses the zip (404, never its documents) once the organization has handed one of its loans on, and gives it again when it is back', async () => {
    const ownerOf = (participantId: string) =>
      server.database.owner.db.execute(
        sql`update loan_parties set participant_id = ${participantId} where loan_id = ${loans.second.id} and role = 'OWNER'`,
      );
    await ownerOf(org.other);
    try {
      for (const url of [zipUrl(), zipUrl(job.jobId)]) {
        const refused = await asMember.get(url);
        expect(refused.statusCode).toBe(404);
        expect(errorBodySchema.parse(refused.json()).message).toBe(ZIP_ACCESS_LOST);
        expect(refused.headers['content-type']).not.toBe('application/zip');
      }
    } finally {
      await ownerOf(org.home);
    }
    expect((await asMember.get(zipUrl(job.jobId))).statusCode).toBe(200);
  });

  it('takes the whole filtered set when filters are given', async () => {
    const filtered = await start({ type: 'BATCH_DOWNLOAD_AOMS', filters: { query: loans.second.uli } });
    expect(filtered.total).toBe(2);
    await server.app.jobs.runPending();
    const files = await unzip((await asMember.get(zipUrl(filtered.jobId))).rawPayload);
    expect([...files.keys()].filter((name) => name.endsWith('.pdf'))).toEqual([`${loans.second.uli}/assignment.pdf`]);
    // Newest first.
    expect((await listJobs()).map((listed) => listed.jobId).slice(0, 2)).toEqual([filtered.jobId, job.jobId]);
  });

  it('a retried job deletes the chunks an interrupted attempt left and stores a whole zip', async () => {
    const retried = await start({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.second.id] });
    await server.db
      .insert(jobFiles)
      .values([0, 1, 2, 7].map((chunkNo) => ({ jobId: retried.jobId, chunkNo, bytes: Buffer.from('left by a crash') })));
    await server.app.jobs.runPending();
    const files = await unzip((await asMember.get(zipUrl(retried.jobId))).rawPayload);
    expect(sha256(files.get(`${loans.second.uli}/assignment.pdf`) ?? Buffer.alloc(0))).toBe(
      assignments.find((document) => document.uli === loans.second.uli)?.hash,
    );
  });

  it('a job that failed for good shows FAILED with its message and has no zip', async () => {
    const failing = await start({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.first.id] });
    await batchDownloadAomsFailed(
      {
        db: server.db,
        jobs: server.app.jobs,
        job: { id: failing.jobId, queue: JOB_QUEUES.batchDownloadAoms, retryCount: 4, retryLimit: 4 },
        log: server.app.log,
      },
      { jobId: failing.jobId, loanIds: [loans.first.id] },
      'boom',
    );
    const listed = (await listJobs()).find((candidate) => candidate.jobId === failing.jobId);
    expect(listed).toMatchObject({ status: 'FAILED', error: BATCH_DOWNLOAD_TEXTS.failed });
    expect((await asMember.get(zipUrl(failing.jobId))).statusCode).toBe(404);
    // Its queued work finds the job final and stores nothing.
    await server.app.jobs.runPending();
    expect((await listJobs()).find((candidate) => candidate.jobId === failing.jobId)?.status).toBe('FAILED');
    expect((await asMember.get(zipUrl(failing.jobId))).statusCode).toBe(404);
  });

  it("answers 404 for another user's or another organization's job, and lists only the caller's", async () => {
    const colleague = server.caller(cookies.colleague, org.home);
    const notFound = await colleague.get(zipUrl(job.jobId));
    expect(notFound.statusCode).toBe(404);
    expect(errorBodySchema.parse(notFound.json()).message).toBe('Job not found.');
    expect((await colleague.get(zipUrl())).statusCode).toBe(404);
    expect(await listJobs(colleague)).toEqual([]);

    const elsewhere = server.caller(cookies.member, org.other);
    expect((await elsewhere.get(zipUrl(job.jobId))).statusCode).toBe(404);
    expect(await listJobs(elsewhere)).toEqual([]);
  });

  it('refuses a bad body with 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'BATCH_DOWNLOAD_AOMS' }, /body\.loanIds: give exactly one of loanIds or filters/],
      [{ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.first.id], filters: {} }, /body\.filters: give exactly one of loanIds or filters/],
      [{ type: 'BATCH_DOWNLOAD_AOMS', loanIds: ['not-a-uuid'] }, /body\.loanIds\.0/],
      [{ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [] }, /body\.loanIds/],
      [{ type: 'BATCH_DOWNLOAD_AOMS', loanIds: Array.from({ length: 10_001 }, () => loans.first.id) }, /body\.loanIds/],
      [{ type: 'SOMETHING_ELSE', loanIds: [loans.first.id] }, /body\.type/],
      [{ type: 'BATCH_DOWNLOAD_AOMS', filters: { participantRoles: ['NOBODY'] } }, /body\.filters\.participantRoles\.0/],
      [{ type: 'BATCH_DOWNLOAD_AOMS', filters: { query: 'a\u0000b' } }, /body\.filters\.query: must not contain a NUL character/],
      [
        { type: 'BATCH_DOWNLOAD_AOMS', filters: { oldestDateLastUpdated: '0000-01-01' } },
        /body\.filters\.oldestDateLastUpdated: must be in year 0001 or later/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await post(body, asMember);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorBodySchema.parse(response.json()).message).toMatch(message);
    }
    const badQuery = await asMember.get(`${PATHS.jobs}?type=OTHER`);
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().message).toMatch(/querystring\.type/);
  });

  it('answers 401 without a session', async () => {
    expect((await post({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.first.id] })).statusCode).toBe(401);
    expect((await server.anonymous.get(jobsUrl)).statusCode).toBe(401);
    expect((await server.anonymous.get(zipUrl())).statusCode).toBe(401);
  });

  it('documents the three calls in OpenAPI', async () => {
    const document = (await server.anonymous.get('/registry/api-docs/json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    expect(document.paths[PATHS.jobs]?.post?.responses['202']).toBeDefined();
    expect(document.paths[PATHS.jobs]?.get?.responses['200']).toBeDefined();
    expect(Object.keys(document.paths[PATHS.documentsZip]?.get?.responses['200']?.content ?? {})).toEqual(['application/zip']);
  });
});

describe('at most MAX_UNFINISHED_JOBS unfinished jobs per user and organization', () => {
  it('refuses one more with 429 until one has finished; other users and organizations are not held up', async () => {
    const colleague = server.caller(cookies.colleague, org.home);
    const body = { type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.first.id] };
    // Started at once: the starts take turns, so exactly the cap gets through.
    const responses = await Promise.all(Array.from({ length: MAX_UNFINISHED_JOBS + 2 }, () => post(body, colleague)));
    expect(responses.map((response) => response.statusCode).sort()).toEqual([
      ...Array.from({ length: MAX_UNFINISHED_JOBS }, () => 202),
      429,
      429,
    ]);
    const refused = responses.find((response) => response.statusCode === 429);
    expect(errorBodySchema.parse(refused?.json()).message).toBe(TOO_MANY_UNFINISHED_JOBS);
    expect(await listJobs(colleague)).toHaveLength(MAX_UNFINISHED_JOBS);

    // The member in the same organization, and the colleague's cap is not theirs.
    expect((await post(body, asMember)).statusCode).toBe(202);

    // Once they have run, the colleague may start again.
    await server.app.jobs.runPending(JOB_QUEUES.batchDownloadAoms);
    expect((await post(body, colleague)).statusCode).toBe(202);
  });
});

describe('retention of finished jobs', () => {
  it('deletes DONE and FAILED jobs, with their zips, once past the retention; unfinished and recent ones stay', async () => {
    const db = server.db;
    const colleague = server.caller(cookies.colleague, org.home);
    await server.app.jobs.runPending(JOB_QUEUES.batchDownloadAoms);
    const finished = await listJobs(colleague);
    expect(finished.length).toBeGreaterThan(0);
    expect(finished.every((job) => job.status === 'DONE')).toBe(true);
    const [old, ...recent] = finished.map((job) => job.jobId);
    if (!old) throw new Error('no finished job');
    const failed = (await listJobs()).find((job) => job.status === 'FAILED')?.jobId;
    if (!failed) throw new Error('no failed job');
    const stillRunning = await start({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loans.second.id] });
    // The oldest finished 8 days ago; the running one has not changed for as long.
    const eightDaysAgo = sql`now() - interval '8 days'`;
    await db
      .update(jobs)
      .set({ updatedAt: eightDaysAgo })
      .where(inArray(jobs.id, [old, failed, stillRunning.jobId]));
    await db.update(jobs).set({ status: 'RUNNING' }).where(eq(jobs.id, stillRunning.jobId));
    const filesOf = async (jobId: string) => (await db.select().from(jobFiles).where(eq(jobFiles.jobId, jobId))).length;
    expect(await filesOf(old)).toBeGreaterThan(0);

    // The timer's round, through an server.app whose purge runs every 100 ms.
    const purgingApp = await server.otherApp({
      app: { config: { ...TEST_CONFIG, jobRetentionHours: 7 * 24, jobPurgeIntervalMs: 100 } },
    });
    try {
      await expect.poll(async () => (await listJobs(colleague)).map((job) => job.jobId), { timeout: 5000 }).not.toContain(old);
    } finally {
      await purgingApp.close();
    }
    expect(await filesOf(old)).toBe(0);
    const kept = (await listJobs(colleague)).map((job) => job.jobId);
    expect(kept).toEqual(expect.arrayContaining(recent));
    const member = (await listJobs()).map((job) => job.jobId);
    expect(member).toContain(stillRunning.jobId);
    expect(member).not.toContain(failed);
  });
});
