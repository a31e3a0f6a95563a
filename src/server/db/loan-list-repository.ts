// The asset list: pages of an organization's loans (JSON) and every matching row streamed for the
// CSV, over the list index (loan_list_entries, its stored items loan_list_items). SQL in loan-list-query.ts.
import { hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import QueryStream from 'pg-query-stream';
import type { LoanListItem } from '../../contract/loans';
import type { Database } from './database';
import { poolOf } from './pg-pool';
import {
  loanCountSql,
  loanCsvSql,
  loanListShape,
  loanListSql,
  type LoanListFilter,
  type LoanPageRequest,
  type SqlQuery,
} from './loan-list-query';

export type { LoanListFilter } from './loan-list-query';

export interface LoanPage {
  readonly loans: LoanListItem[];
  readonly totalCount: number;
}

/**
 * The statement of a page (loanListSql). Without a search it is prepared by name, once per
 * connection and shape (a few dozen: sort column x direction x filters, loanListShape): planning it
 * costs PostgreSQL about a third of the whole call, and its plan does not depend on the values.
 * A search is planned each time: how selective its text is decides the plan.
 *
 * Each shape's text and name are kept: the text is built afresh for its values, but naming it by
 * hashing 2.7 KB of new text took about 8 µs a page, and pg compares the text of a named
 * statement with the one it prepared (the kept string is that same string).
 */
export function loanListStatement(filter: LoanListFilter, page: LoanPageRequest): SqlQuery & { readonly name?: string } {
  const statement = loanListSql(filter, page);
  const shape = loanListShape(filter, page);
  if (shape === undefined) return statement;
  let named = NAMED_STATEMENTS.get(shape);
  if (named === undefined) {
    named = { text: statement.text, name: `loan_list_${hash('sha1', statement.text, 'hex').slice(0, 20)}` };
    NAMED_STATEMENTS.set(shape, named);
  }
  return { text: named.text, values: statement.values, name: named.name };
}

/** Text and name by shape (a bounded set: loanListShape's fields take a few values each). */
const NAMED_STATEMENTS = new Map<string, { readonly text: string; readonly name: string }>();

/**
 * One page and the exact count of the whole filtered set as the contract's JSON text
 * (`{"loans":[...],"totalCount":n}`, loanListSchema), built by PostgreSQL in one statement
 * (loanListSql): the route sends it as it is.
 */
export async function listLoanPageJson(db: Database, filter: LoanListFilter, page: LoanPageRequest): Promise<string> {
  const { rows } = await poolOf(db).query<{ loans: string; total: number | null }>(loanListStatement(filter, page));
  const { loans = '[]', total = null } = rows[0] ?? {};
  // A search, id list or pool page past the end carries no row, hence no count.
  const totalCount =
    total ?? (page.offset === 0 ? 0 : ((await poolOf(db).query<{ total: number }>(loanCountSql(filter))).rows[0]?.total ?? 0));
  return `{"loans":${loans},"totalCount":${totalCount}}`;
}

/** The same page as an object, for answers that hold it among other fields (a pool's page). */
export async function listLoanPage(db: Database, filter: LoanListFilter, page: LoanPageRequest): Promise<LoanPage> {
  return JSON.parse(await listLoanPageJson(db, filter, page)) as LoanPage;
}

/** The CSV's source row (loanCsvSql's columns, read as an array: no object per row). */
export type LoanCsvRow = [
  id: string,
  uli: string,
  loanNumber: string,
  loanType: string,
  tradeDate: string | null,
  mortgageeOfRecord: string | null,
  statusRank: number,
  borrower: string,
  propertyAddress: string,
  owner: string | null,
  servicer: string | null,
  controller: string | null,
  subServicer: string | null,
  securedParty: string | null,
];

const CSV_BATCH_ROWS = 2000;

/**
 * Every matching row, streamed from a server-side cursor (bounded memory: one batch at a time,
 * fetched as the consumer reads), once the first batch has come. The connection (of `pool`: the
 * server gives its CSV pool) returns to the pool when the stream ends, fails or is destroyed (a
 * client that hangs up).
 */
export async function streamLoanCsvRows(db: Database, filter: LoanListFilter, pool: pg.Pool = poolOf(db)): Promise<Readable> {
  const client = await pool.connect();
  const { text, values } = loanCsvSql(filter);
  const stream: Readable = client.query(
    new QueryStream(text, values, { batchSize: CSV_BATCH_ROWS, highWaterMark: CSV_BATCH_ROWS, rowMode: 'array' }),
  );
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  stream.once('end', () => release());
  // An error or an early close leaves the cursor's portal open: discard the connection.
  stream.once('error', (error) => release(error));
  stream.once('close', () => release(stream.readableEnded ? undefined : new Error('CSV stream closed early')));
  await firstBatch(stream);
  return stream;
}

/**
 * Resolves once the stream holds its first rows (or has none), rejects if the statement fails:
 * the caller sends the response's status and headers only after the query has run, so a failing
 * statement answers with an error status, not a 200 cut short.
 */
function firstBatch(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('readable', onReadable);
      stream.off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    // 'readable' comes with the first batch, or at the end of an empty result.
    const onReadable = () => settle();
    stream.on('readable', onReadable);
    stream.on('error', settle);
  });
}
