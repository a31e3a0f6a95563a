// Batch jobs as the product sees them (the `jobs` table: status, progress, total, error) and their
// result files (`job_files`, the zip in chunks). pg-boss's own tables run the work (src/server/jobs/).
import { Readable } from 'node:stream';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { to as copyTo } from 'pg-copy-streams';
import { FILTERABLE_ROLES } from '../../domain/loan';
import type { JobStatus, JobType } from '../../contract/jobs';
import type { Database, Transaction } from './database';
import { parseBinaryCopy } from './document-repository';
import { loanIdsSql, type LoanListFilter } from './loan-list-query';
import { poolOf } from './pg-pool';
import { jobs } from './schema';
import { writeTransaction } from './write-transaction';

export interface JobRow {
  readonly id: string;
  readonly participantId: string;
  readonly userId: string | null;
  readonly type: JobType;
  readonly status: JobStatus;
  readonly progress: number;
  readonly total: number;
  readonly resultSizeBytes: number | null;
  readonly error: string | null;
  /** When its zip was first asked for (null: never, so a DONE job is still to be offered). */
  readonly deliveredAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Whose a job is: an organization and one of its users. */
export interface JobOwner {
  readonly participantId: string;
  readonly userId: string;
}

const JOB_COLUMNS = `id, participant_id AS "participantId", user_id AS "userId", type, status, progress, total,
  result_size_bytes::float8 AS "resultSizeBytes", error, delivered_at AS "deliveredAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A drizzle transaction (`db.transaction(async (tx) => ...)`'s `tx`). */

/**
 * The loans of `filter` the organization may see, at most `limit`. With `loanIds` these are the
 * given ids it holds any role on (like the CSV: the others are left out without a word).
 */
export async function visibleLoanIds(db: Database, filter: LoanListFilter, limit: number): Promise<string[]> {
  const selection: LoanListFilter = filter.loanIds
    ? { ...filter, roles: [...FILTERABLE_ROLES], query: undefined, updatedSince: undefined }
    : filter;
  const { rows } = await poolOf(db).query<{ loan_id: string }>(loanIdsSql(selection, limit));
  return rows.map((row) => row.loan_id);
}

/** How many ASSIGNMENT documents the loans hold: a batch download's total. */
export async function countAssignmentDocuments(db: Database, loanIds: readonly string[]): Promise<number> {
  const { rows } = await poolOf(db).query<{ n: number }>(
    `SELECT count(*)::int AS n FROM documents WHERE loan_id = ANY ($1::uuid[]) AND type = 'ASSIGNMENT'`,
    [loanIds],
  );
  return rows[0]?.n ?? 0;
}

/** What a new job is: its owner, id, type, documents to take, and the loans it takes them from. */
export type NewJob = JobOwner & {
  readonly id: string;
  readonly type: JobType;
  readonly total: number;
  readonly loanIds: readonly string[];
};

/** A job's columns but its loan ids (up to MAX_BATCH_LOANS of them): what JobRow holds. */
const { loanIds: _loanIds, ...JOB_ROW_COLUMNS } = getTableColumns(jobs);

/** A new PENDING job (in the caller's transaction when `db` is one). */
export async function insertJob(db: Database | Transaction, values: NewJob): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({
      id: values.id,
      participantId: values.participantId,
      userId: values.userId,
      type: values.type,
      status: 'PENDING',
      total: values.total,
      loanIds: [...values.loanIds],
    })
    .returning(JOB_ROW_COLUMNS);
  if (!row) throw new Error('job not inserted');
  return row as JobRow;
}

/**
 * Records a PENDING job and, in the same transaction, queues its work through `enqueue` (given the
 * transaction): no job row without its work, no work without its row. Unless the owner already has
 * `maxUnfinished` jobs of the type PENDING or RUNNING: then nothing is written and the answer is
 * null. Starts of one owner take turns (a transaction lock), so two at once cannot both pass.
 */
export async function startJob(
  db: Database,
  values: NewJob,
  enqueue: (tx: Transaction) => Promise<unknown>,
  maxUnfinished: number,
): Promise<JobRow | null> {
  return writeTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`jobs:${values.participantId}:${values.userId}`}, 0))`);
    const [counted] = await tx
      .select({ unfinished: sql<number>`count(*)::int` })
      .from(jobs)
      .where(
        and(
          eq(jobs.participantId, values.participantId),
          eq(jobs.userId, values.userId),
          eq(jobs.type, values.type),
          inArray(jobs.status, ['PENDING', 'RUNNING']),
        ),
      );
    if ((counted?.unfinished ?? 0) >= maxUnfinished) return null;
    const row = await insertJob(tx, values);
    await enqueue(tx);
    return row;
  });
}

/** Deletes the jobs that finished (DONE or FAILED) over `retentionHours` ago, their zips with them; answers how many. */
export async function deleteFinishedJobs(db: Database, retentionHours: number): Promise<number> {
  const { rowCount } = await poolOf(db).query(
    `DELETE FROM jobs WHERE status IN ('DONE', 'FAILED') AND updated_at < now() - make_interval(hours => $1)`,
    [retentionHours],
  );
  return rowCount ?? 0;
}

/** The owner's jobs of a type, newest first (at most `limit`). */
export async function listJobs(db: Database, owner: JobOwner, type: JobType, limit = 20): Promise<JobRow[]> {
  const { rows } = await poolOf(db).query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs WHERE participant_id = $1 AND user_id = $2 AND type = $3
     ORDER BY created_at DESC, id DESC LIMIT $4`,
    [owner.participantId, owner.userId, type, limit],
  );
  return rows;
}

export async function findJob(db: Database, id: string): Promise<JobRow | undefined> {
  const { rows } = await poolOf(db).query<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1`, [id]);
  return rows[0];
}

/**
 * The owner's DONE job of the type whose file is stored: `jobId`'s, or the newest. Another
 * owner's job is not found, like a missing one.
 */
export async function findDownloadableJob(db: Database, owner: JobOwner, type: JobType, jobId?: string): Promise<JobRow | undefined> {
  const { rows } = await poolOf(db).query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM jobs j
     WHERE participant_id = $1 AND user_id = $2 AND type = $3 AND status = 'DONE' AND ($4::uuid IS NULL OR id = $4::uuid)
       AND EXISTS (SELECT 1 FROM job_files f WHERE f.job_id = j.id)
     ORDER BY created_at DESC, id DESC LIMIT 1`,
    [owner.participantId, owner.userId, type, jobId ?? null],
  );
  return rows[0];
}

/**
 * Whether the organization still holds a role on every loan its job was started for: a zip is
 * not handed out with the documents of a loan the organization has since handed on. (Jobs from
 * before migration 0017 kept no loans: nothing to check.)
 */
export async function holdsEveryLoanOfJob(db: Database, jobId: string, participantId: string): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ held: boolean }>(
    `SELECT NOT EXISTS (
       SELECT 1 FROM jobs j CROSS JOIN LATERAL unnest(j.loan_ids) AS loan(id)
       WHERE j.id = $1
         AND NOT EXISTS (SELECT 1 FROM loan_parties lp WHERE lp.loan_id = loan.id AND lp.participant_id = $2)
     ) AS held`,
    [jobId, participantId],
  );
  return rows[0]?.held ?? false;
}

/** Records that the job's zip was asked for, the first time only. */
export async function markJobDelivered(db: Database, id: string): Promise<void> {
  await poolOf(db).query(`UPDATE jobs SET delivered_at = now() WHERE id = $1 AND delivered_at IS NULL`, [id]);
}

/** Sets a job's status and counters (and clears or sets its error); `updated_at` is now. */
export async function updateJob(
  db: Database,
  id: string,
  changes: { status?: JobStatus; progress?: number; total?: number; error?: string | null; resultSizeBytes?: number | null },
  /** Only while the job has this status (a late writer does not undo a final status). */
  onlyIf?: JobStatus,
): Promise<boolean> {
  const updated = await db
    .update(jobs)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(onlyIf ? and(eq(jobs.id, id), eq(jobs.status, onlyIf)) : eq(jobs.id, id))
    .returning({ id: jobs.id });
  return updated.length > 0;
}

/** One assignment document to zip (without its content). */
export interface AssignmentDocumentRow {
  readonly id: string;
  readonly uli: string;
  readonly fileName: string;
  readonly hash: string;
  readonly sizeBytes: number;
  readonly createdAt: Date;
}

/** The loans' ASSIGNMENT documents without content, by ULI then file name (the zip's order). */
export async function listAssignmentDocuments(db: Database, loanIds: readonly string[]): Promise<AssignmentDocumentRow[]> {
  const { rows } = await poolOf(db).query<AssignmentDocumentRow>(
    `SELECT d.id, l.uli, d.file_name AS "fileName", d.hash, d.size_bytes AS "sizeBytes", d.created_at AS "createdAt"
     FROM documents d JOIN loans l ON l.id = d.loan_id
     WHERE d.loan_id = ANY ($1::uuid[]) AND d.type = 'ASSIGNMENT'
     ORDER BY l.uli, d.file_name, d.id`,
    [loanIds],
  );
  return rows;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A quoted uuid literal for a COPY statement (COPY takes no parameters): only a uuid passes. */
function uuidLiteral(value: string): string {
  if (!UUID.test(value)) throw new Error(`Refusing to write ${JSON.stringify(value.slice(0, 80))} into a statement`);
  return `'${value}'`;
}

/**
 * The tuples of a binary COPY of one query. Bytes arrive in Buffers as stored: as a query result
 * they would come as hex text, a JavaScript string twice their size for every document, which is
 * what made a thousand-document zip grow the server by hundreds of megabytes before a collection.
 */
async function copyRows(db: Database, query: string): Promise<(Buffer | null)[][]> {
  const client = await poolOf(db).connect();
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of client.query(copyTo(`COPY (${query}) TO STDOUT (FORMAT binary)`))) chunks.push(chunk as Buffer);
  } catch (error) {
    // A connection that failed mid-COPY is not given back to the pool.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  client.release();
  return parseBinaryCopy(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
}

/** The content of some documents, by id (a bounded batch: the caller sizes it). */
export async function readDocumentContents(db: Database, ids: readonly string[]): Promise<Map<string, Buffer>> {
  if (ids.length === 0) return new Map();
  const rows = await copyRows(db, `SELECT id::text, content FROM documents WHERE id IN (${ids.map(uuidLiteral).join(', ')})`);
  const contents = new Map<string, Buffer>();
  for (const [id, content] of rows) if (id && content) contents.set(id.toString('utf8'), content);
  return contents;
}

export async function deleteJobFile(db: Database, jobId: string): Promise<void> {
  await poolOf(db).query('DELETE FROM job_files WHERE job_id = $1', [jobId]);
}

export async function insertJobFileChunk(db: Database, jobId: string, chunkNo: number, bytes: Buffer): Promise<void> {
  await poolOf(db).query('INSERT INTO job_files (job_id, chunk_no, bytes) VALUES ($1, $2, $3)', [jobId, chunkNo, bytes]);
}

/**
 * A job's file, chunk after chunk, one binary COPY per chunk as the reader asks (bounded memory:
 * the stream's buffer holds at most a couple of chunks).
 */
export function streamJobFile(db: Database, jobId: string): Readable {
  const job = uuidLiteral(jobId);
  let next = 0;
  return new Readable({
    highWaterMark: 2 * 1024 * 1024,
    read() {
      copyRows(db, `SELECT bytes FROM job_files WHERE job_id = ${job} AND chunk_no = ${next}`).then(
        ([row]) => {
          next += 1;
          this.push(row?.[0] ?? null);
        },
        (error: Error) => this.destroy(error),
      );
    },
  });
}
