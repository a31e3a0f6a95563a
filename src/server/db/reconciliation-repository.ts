// Reconciliations against a loan tape: the job's details (`reconciliations`), the uploaded tape in
// chunks until its job is done, the staging of its rows in a temporary table, the set-based
// comparison with the organization's loans, and the report (`reconciliation_differences`).
//
// The comparison never looks beyond the loans the organization holds a role on (loan_list_entries,
// the asset list's index): a tape loan outside them is 'not in the registry', whether it exists
// elsewhere or not, so the report cannot tell another organization's loans from none.
import { Readable, Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Difference, ReconciliationCounts } from '../../contract/reconciliation';
import type { JobStatus } from '../../contract/jobs';
import {
  DIFFERENCE_KINDS,
  RECONCILIATION_TEXTS,
  TAPE_FIELDS,
  type DifferenceKind,
  type TapeColumns,
  type TapeField,
} from '../../domain/reconciliation';
import type { Database, Transaction } from './database';
import type { JobOwner } from './job-repository';
import { poolOf } from './pg-pool';

export interface ReconciliationRow {
  readonly jobId: string;
  readonly participantId: string;
  readonly userId: string | null;
  readonly status: JobStatus;
  readonly progress: number;
  readonly total: number;
  readonly error: string | null;
  readonly fileName: string;
  readonly fields: TapeField[];
  readonly columns: TapeColumns;
  readonly rows: number;
  readonly counts: ReconciliationCounts | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const COLUMNS = `j.id AS "jobId", j.participant_id AS "participantId", j.user_id AS "userId", j.status, j.progress, j.total,
  j.error, r.file_name AS "fileName", r.fields, r.columns, r.rows, r.counts, j.created_at AS "createdAt", j.updated_at AS "updatedAt"`;
const FROM = `FROM jobs j JOIN reconciliations r ON r.job_id = j.id`;

export interface NewReconciliation extends JobOwner {
  readonly id: string;
  readonly fileName: string;
  readonly columns: TapeColumns;
}

/** Takes the owner's turn for starting reconciliations and answers how many are unfinished. */
export async function lockAndCountUnfinished(tx: Transaction, owner: JobOwner): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`jobs:${owner.participantId}:${owner.userId}`}, 0))`);
  const { rows } = await tx.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM jobs WHERE participant_id = ${owner.participantId} AND user_id = ${owner.userId}
        AND type = 'RECONCILIATION' AND status IN ('PENDING', 'RUNNING')`,
  );
  return rows[0]?.n ?? 0;
}

export async function insertReconciliation(tx: Transaction, values: NewReconciliation): Promise<void> {
  await tx.execute(
    sql`INSERT INTO jobs (id, participant_id, user_id, type, status, total)
        VALUES (${values.id}, ${values.participantId}, ${values.userId}, 'RECONCILIATION', 'PENDING', 0)`,
  );
  const fields = TAPE_FIELDS.filter((field) => values.columns[field] !== undefined);
  await tx.execute(
    sql`INSERT INTO reconciliations (job_id, file_name, fields, columns)
        VALUES (${values.id}, ${values.fileName}, ${`{${fields.join(',')}}`}::text[], ${JSON.stringify(values.columns)}::jsonb)`,
  );
}

export async function insertTapeChunk(tx: Transaction, jobId: string, chunkNo: number, bytes: Buffer): Promise<void> {
  await tx.execute(sql`INSERT INTO reconciliation_tape_chunks (job_id, chunk_no, bytes) VALUES (${jobId}, ${chunkNo}, ${bytes})`);
}

/** The tape's size is the job's total (progress counts the bytes read). */
export async function setTapeSize(tx: Transaction, jobId: string, bytes: number): Promise<void> {
  await tx.execute(sql`UPDATE jobs SET total = ${bytes} WHERE id = ${jobId}`);
}

export async function findReconciliation(db: Database, jobId: string): Promise<ReconciliationRow | undefined> {
  const { rows } = await poolOf(db).query<ReconciliationRow>(`SELECT ${COLUMNS} ${FROM} WHERE j.id = $1`, [jobId]);
  return rows[0];
}

/** The owner's reconciliation; another owner's is not found, like a missing one. */
export async function findOwnedReconciliation(db: Database, owner: JobOwner, jobId: string): Promise<ReconciliationRow | undefined> {
  const { rows } = await poolOf(db).query<ReconciliationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE j.id = $1 AND j.participant_id = $2 AND j.user_id = $3`,
    [jobId, owner.participantId, owner.userId],
  );
  return rows[0];
}

/** The owner's reconciliations, newest first (at most `limit`). */
export async function listReconciliations(db: Database, owner: JobOwner, limit = 20): Promise<ReconciliationRow[]> {
  const { rows } = await poolOf(db).query<ReconciliationRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE j.participant_id = $1 AND j.user_id = $2 AND j.type = 'RECONCILIATION'
     ORDER BY j.created_at DESC, j.id DESC LIMIT $3`,
    [owner.participantId, owner.userId, limit],
  );
  return rows;
}

/** One chunk of the stored tape (undefined past the last). */
export async function readTapeChunk(db: Database, jobId: string, chunkNo: number): Promise<Buffer | undefined> {
  const { rows } = await poolOf(db).query<{ bytes: Buffer }>(
    'SELECT bytes FROM reconciliation_tape_chunks WHERE job_id = $1 AND chunk_no = $2',
    [jobId, chunkNo],
  );
  return rows[0]?.bytes;
}

/** A loan row of the tape as staged: its line, key and the fields the tape gives (null: not given). */
export interface StagedRow {
  readonly line: number;
  readonly uli: string | null;
  readonly loanNumber: string | null;
  readonly values: Partial<Record<TapeField, string>>;
}

/** What the staging stores per column, in COPY order. */
const STAGED_FIELDS = ['owner', 'servicer', 'subServicer', 'controller', 'securedParty', 'status'] as const;

/** COPY text format: backslash, tab, line feed and carriage return escaped; null as \N. */
const copyCell = (value: string | null | undefined): string =>
  value === null || value === undefined
    ? '\\N'
    : value.replace(/[\\\t\n\r]/g, (char) => (char === '\\' ? '\\\\' : char === '\t' ? '\\t' : char === '\n' ? '\\n' : '\\r'));

export const stagedLine = (jobId: string, row: StagedRow): string =>
  [jobId, String(row.line), copyCell(row.uli), copyCell(row.loanNumber), ...STAGED_FIELDS.map((field) => copyCell(row.values[field]))].join(
    '\t',
  ) + '\n';

export const unreadableLine = (jobId: string, line: number, detail: string): string => `${jobId}\t${line}\t${copyCell(detail)}\n`;

/**
 * A comparison's session: one connection in one transaction, holding the temporary staging tables.
 * Rows go in through `rows` (a COPY), unreadable lines through `unreadable`; `compare` writes the
 * report and the job's DONE status in the same transaction, so a job stopped half-way leaves nothing.
 */
export interface StagingSession {
  readonly rows: Writable;
  readonly unreadable: Writable;
  /** Ends both COPY streams. */
  endCopy(): Promise<void>;
  compare(
    jobId: string,
    participantId: string,
    key: 'uli' | 'loanNumber',
    fields: readonly TapeField[],
    rows: number,
  ): Promise<ReconciliationCounts>;
  release(error?: Error): Promise<void>;
}

const finished = (stream: Writable) =>
  new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });

/**
 * Opens the staging: BEGIN, then a COPY into the staging table (the caller writes it). The staging
 * tables are shared by every job, each reading its own rows (job_id) and deleting them before COMMIT.
 */
export async function openStaging(db: Database, jobId: string): Promise<StagingSession> {
  if (!UUID.test(jobId)) throw new Error('not a job id');
  const client = await poolOf(db).connect();
  let released = false;
  const release = async (error?: Error) => {
    if (released) return;
    released = true;
    if (error) await client.query('ROLLBACK').catch(() => undefined);
    client.release(error ?? undefined);
  };
  try {
    await client.query('BEGIN');
  } catch (error) {
    await release(error as Error);
    throw error;
  }
  // Rows are collected first; the unreadable ones, few, after (one COPY at a time per connection).
  const rows = client.query(
    copyFrom(
      'COPY reconciliation_tape_rows (job_id, line, uli, loan_number, owner, servicer, sub_servicer, controller, secured_party, status) FROM STDIN',
    ),
  );
  const unreadableLines: string[] = [];
  const unreadable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      unreadableLines.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    rows,
    unreadable,
    async endCopy() {
      const done = finished(rows);
      rows.end();
      await done;
      unreadable.end();
      const copy = client.query(copyFrom('COPY reconciliation_tape_unreadable (job_id, line, detail) FROM STDIN'));
      const copied = finished(copy);
      for (const line of unreadableLines) copy.write(line);
      copy.end();
      await copied;
    },
    async compare(jobId, participantId, key, fields, rowCount) {
      return compareStaged(client, jobId, participantId, key, fields, rowCount);
    },
    release,
  };
}

/** The registry's side of each compared field over the organization's loans `o` (l: loans, e: loan_list_entries). */
const REGISTRY_VALUE: Readonly<Record<Exclude<TapeField, 'uli'>, { tape: string; registry: string; party?: string }>> = {
  loanNumber: { tape: 't.loan_number', registry: 'o.loan_number' },
  owner: { tape: 't.owner', registry: 'o.owner_name', party: 'OWNER' },
  servicer: { tape: 't.servicer', registry: 'o.servicer_name', party: 'SERVICER' },
  subServicer: { tape: 't.sub_servicer', registry: 'o.sub_servicer_name', party: 'SUB_SERVICER' },
  controller: { tape: 't.controller', registry: 'o.controller_name', party: 'CONTROLLER' },
  securedParty: { tape: 't.secured_party', registry: 'o.secured_party_name', party: 'SECURED_PARTY' },
  status: { tape: 't.status', registry: 'o.status' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_PATTERN = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;

/** Whether a tape cell matches the registry's value: names without regard to case or surrounding spaces, a party also by its id. */
function sameValueSql(field: Exclude<TapeField, 'uli'>): string {
  const { tape, registry, party } = REGISTRY_VALUE[field];
  const byName = `lower(btrim(coalesce(${tape}, ''))) = lower(coalesce(${registry}, ''))`;
  if (!party) return field === 'loanNumber' ? `btrim(${tape}) = coalesce(${registry}, '')` : byName;
  // An id is looked up only for a cell that is one (rare): the list index holds names only.
  const byId = `(btrim(${tape}) ~ ${UUID_PATTERN} AND EXISTS (SELECT 1 FROM loan_parties lp WHERE lp.loan_id = o.loan_id
    AND lp.role = '${party}' AND lp.participant_id = btrim(${tape})::uuid))`;
  return `(${byName} OR ${byId})`;
}

async function compareStaged(
  client: pg.PoolClient,
  jobId: string,
  participantId: string,
  key: 'uli' | 'loanNumber',
  fields: readonly TapeField[],
  rowCount: number,
): Promise<ReconciliationCounts> {
  const tapeKey = key === 'uli' ? 't.uli' : 't.loan_number';
  const orgKey = key === 'uli' ? 'o.uli' : 'o.loan_number';
  // The comparison's hashes and sorts (a few hundred thousand rows) in memory rather than in batches on disk.
  await client.query(`SET LOCAL work_mem = '128MB'`);
  const keyColumn = key === 'uli' ? 'uli' : 'loan_number';

  const compared = fields.filter((field): field is Exclude<TapeField, 'uli'> => field !== 'uli' && field !== key);
  const unpivot = compared
    .map(
      (field, rank) =>
        `SELECT ${rank} AS rank, '${field}' AS field, ${REGISTRY_VALUE[field].tape} AS tape_value, ${REGISTRY_VALUE[field].registry}::text AS registry_value,
           ${sameValueSql(field)} AS same`,
    )
    .join(' UNION ALL ');
  const kindRank = (kind: DifferenceKind) => DIFFERENCE_KINDS.indexOf(kind);
  const differsSql = compared.length
    ? `UNION ALL
       SELECT ${kindRank('FIELD_DIFFERS')}, t.line, d.rank, o.uli, o.loan_number, d.field, d.tape_value, d.registry_value, NULL
       FROM t JOIN o ON ${orgKey} = ${tapeKey}
       CROSS JOIN LATERAL (${unpivot}) d
       WHERE NOT d.same`
    : '';
  // The organization's loans (those it holds a role on) and the job's tape rows, each read once.
  await client.query(
    `WITH o AS MATERIALIZED (
       SELECT e.loan_id, l.uli, l.loan_number, l.status, e.owner_name, e.servicer_name, e.sub_servicer_name,
         e.controller_name, e.secured_party_name
       FROM loan_list_entries e JOIN loans l ON l.id = e.loan_id WHERE e.participant_id = $2
     ), staged AS MATERIALIZED (
       SELECT line, uli, loan_number, owner, servicer, sub_servicer, controller, secured_party, status,
         min(line) OVER (PARTITION BY ${keyColumn}) AS first
       FROM reconciliation_tape_rows WHERE job_id = $1
     ), t AS MATERIALIZED (
       -- A key given twice: the later lines are unreadable, the first stays.
       SELECT * FROM staged WHERE first = line
     )
     INSERT INTO reconciliation_differences (job_id, seq, kind, line, uli, loan_number, field, tape_value, registry_value, detail)
     SELECT $1, row_number() OVER (ORDER BY k, line NULLS LAST, uli, rank)::int, (ARRAY[${DIFFERENCE_KINDS.map((kind) => `'${kind}'`).join(', ')}])[k + 1],
       line, uli, loan_number, field, tape_value, registry_value, detail
     FROM (
       SELECT ${kindRank('NOT_IN_REGISTRY')} AS k, t.line, 0 AS rank, t.uli, t.loan_number, NULL::text AS field, NULL::text AS tape_value,
         NULL::text AS registry_value, NULL::text AS detail
       FROM t WHERE NOT EXISTS (SELECT 1 FROM o WHERE ${orgKey} = ${tapeKey})
       UNION ALL
       SELECT ${kindRank('MISSING_FROM_TAPE')}, NULL, 0, o.uli, o.loan_number, NULL, NULL, NULL, NULL
       FROM o WHERE NOT EXISTS (SELECT 1 FROM t WHERE ${tapeKey} = ${orgKey})
       ${differsSql}
       UNION ALL
       SELECT ${kindRank('UNREADABLE_ROW')}, u.line, 0, NULL, NULL, NULL, NULL, NULL, u.detail
       FROM reconciliation_tape_unreadable u WHERE u.job_id = $1
       UNION ALL
       SELECT ${kindRank('UNREADABLE_ROW')}, d.line, 0, NULL, NULL, NULL, NULL, NULL, format($3, d.first)
       FROM staged d WHERE d.first < d.line
     ) AS difference`,
    [jobId, participantId, RECONCILIATION_TEXTS.duplicateKey(-1).replace('-1', '%s')],
  );
  // The staging is emptied in the transaction that filled it: no committed row stays.
  await client.query('DELETE FROM reconciliation_tape_rows WHERE job_id = $1', [jobId]);
  await client.query('DELETE FROM reconciliation_tape_unreadable WHERE job_id = $1', [jobId]);
  const { rows } = await client.query<{ kind: DifferenceKind; n: number }>(
    'SELECT kind, count(*)::int AS n FROM reconciliation_differences WHERE job_id = $1 GROUP BY kind',
    [jobId],
  );
  const counts = Object.fromEntries(
    DIFFERENCE_KINDS.map((kind) => [kind, rows.find((row) => row.kind === kind)?.n ?? 0]),
  ) as ReconciliationCounts;
  await client.query(`UPDATE reconciliations SET counts = $2, rows = $3 WHERE job_id = $1`, [jobId, JSON.stringify(counts), rowCount]);
  // The tape is no longer needed once its report is written.
  await client.query('DELETE FROM reconciliation_tape_chunks WHERE job_id = $1', [jobId]);
  await client.query(
    `UPDATE jobs SET status = 'DONE', progress = total, error = NULL, updated_at = now() WHERE id = $1 AND status = 'RUNNING'`,
    [jobId],
  );
  await client.query('COMMIT');
  return counts;
}

/** Starts an attempt afresh: what an earlier one wrote goes. */
export async function deleteDifferences(db: Database, jobId: string): Promise<void> {
  await poolOf(db).query('DELETE FROM reconciliation_differences WHERE job_id = $1', [jobId]);
}

export async function deleteTape(db: Database, jobId: string): Promise<void> {
  await poolOf(db).query('DELETE FROM reconciliation_tape_chunks WHERE job_id = $1', [jobId]);
}

const DIFFERENCE_COLUMNS = `kind, line, uli, loan_number AS "loanNumber", field, tape_value AS "tapeValue", registry_value AS "registryValue", detail`;

/** A page of the report, in its order, optionally of one kind. */
export async function listDifferences(
  db: Database,
  jobId: string,
  view: { readonly kind?: DifferenceKind; readonly limit: number; readonly offset: number },
): Promise<{ differences: Difference[]; totalCount: number }> {
  const pool = poolOf(db);
  const [page, total] = await Promise.all([
    pool.query<Difference>(
      `SELECT ${DIFFERENCE_COLUMNS} FROM reconciliation_differences WHERE job_id = $1 AND ($2::text IS NULL OR kind = $2)
       ORDER BY seq LIMIT $3 OFFSET $4`,
      [jobId, view.kind ?? null, view.limit, view.offset],
    ),
    pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM reconciliation_differences WHERE job_id = $1 AND ($2::text IS NULL OR kind = $2)`,
      [jobId, view.kind ?? null],
    ),
  ]);
  return { differences: page.rows, totalCount: total.rows[0]?.n ?? 0 };
}

/** Rows read per query of the report's CSV. */
const CSV_PAGE_ROWS = 5000;

/** The whole report in its order, a page of rows per read (by seq: no connection is held between reads). */
export function streamDifferences(db: Database, jobId: string): Readable {
  let after = 0;
  return new Readable({
    objectMode: true,
    highWaterMark: 2,
    read() {
      poolOf(db)
        .query<Difference & { seq: number }>(
          `SELECT seq, ${DIFFERENCE_COLUMNS} FROM reconciliation_differences WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          [jobId, after, CSV_PAGE_ROWS],
        )
        .then(
          ({ rows }) => {
            const last = rows.at(-1);
            if (!last) return this.push(null);
            after = last.seq;
            this.push(rows);
          },
          (error: Error) => this.destroy(error),
        );
    },
  });
}
