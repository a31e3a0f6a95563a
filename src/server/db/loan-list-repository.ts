// The asset list: pages of an organization's loans (JSON) and every matching row streamed for the
// CSV, over the list index (loan_list_entries). SQL in loan-list-query.ts.
import { hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import QueryStream from 'pg-query-stream';
import type { LoanListItem, PartyValue, RoleEntry } from '../../contract/loans';
import type { RoleState } from '../../domain/loan';
import type { Database } from './database';
import { poolOf } from './pg-pool';
import {
  isSmallSetFilter,
  loanCountSql,
  loanCsvSql,
  loanListSql,
  type LoanListFilter,
  type LoanPageRequest,
  type SqlQuery,
} from './loan-list-query';

export type { LoanListFilter } from './loan-list-query';

type PartyTuple = [role: string, state: RoleState, name: string | null, isParticipant: boolean, provenanceId: string | null];

interface PageRow {
  id: string;
  uli: string;
  loan_type: string;
  trade_date: string | null;
  mortgagee_of_record: string | null;
  status: LoanListItem['status'];
  parties: PartyTuple[] | null;
  total: number;
}

const ROLE_FIELDS = {
  OWNER: 'owner',
  SERVICER: 'servicer',
  CONTROLLER: 'controller',
  SUB_SERVICER: 'subServicer',
  SECURED_PARTY: 'securedParty',
} as const;

function toItem(row: PageRow): LoanListItem {
  const item: LoanListItem = {
    loanId: row.id,
    uli: row.uli,
    loanType: row.loan_type,
    tradeDate: row.trade_date,
    mortgageeOfRecord: row.mortgagee_of_record,
    status: row.status,
    owner: null,
    servicer: null,
    controller: null,
    subServicer: null,
    securedParty: null,
  };
  for (const [role, state, name, isParticipant, provenanceId] of row.parties ?? []) {
    const field = ROLE_FIELDS[role as keyof typeof ROLE_FIELDS];
    if (!field) continue;
    const currentValue: PartyValue | null = isParticipant ? { participantName: name ?? '', provenanceId: provenanceId ?? '' } : name;
    item[field] = { state, currentValue } satisfies RoleEntry;
  }
  return item;
}

export interface LoanPage {
  readonly loans: LoanListItem[];
  readonly totalCount: number;
}

/**
 * The statement of a page (loanListSql). Without a search it is prepared by name, once per
 * connection and distinct SQL text (a few dozen: sort column x direction x filters): planning it
 * costs PostgreSQL about a third of the whole call, and its plan does not depend on the values.
 * A search is planned each time: how selective its text is decides the plan.
 */
export function loanListStatement(filter: LoanListFilter, page: LoanPageRequest): SqlQuery & { readonly name?: string } {
  const statement = loanListSql(filter, page);
  if (isSmallSetFilter(filter)) return statement;
  return { ...statement, name: statementName(statement.text) };
}

/** Statement names by SQL text: the few shapes of the list are named once, not hashed on every request. */
const STATEMENT_NAMES = new Map<string, string>();
const STATEMENT_NAMES_MAX = 1000;
function statementName(text: string): string {
  let name = STATEMENT_NAMES.get(text);
  if (name === undefined) {
    name = `loan_list_${hash('sha1', text, 'hex').slice(0, 20)}`;
    if (STATEMENT_NAMES.size >= STATEMENT_NAMES_MAX) STATEMENT_NAMES.clear();
    STATEMENT_NAMES.set(text, name);
  }
  return name;
}

/** One page and the exact count of the whole filtered set, in one statement (loanListSql). */
export async function listLoanPage(db: Database, filter: LoanListFilter, page: LoanPageRequest): Promise<LoanPage> {
  const { rows } = await poolOf(db).query<PageRow | (Omit<PageRow, 'id' | 'total'> & { id: null; total: number | null })>(
    loanListStatement(filter, page),
  );
  const total = rows[0]?.total;
  const loans = rows.filter((row): row is PageRow => row.id !== null).map(toItem);
  if (total !== null && total !== undefined) return { loans, totalCount: total };
  if (page.offset === 0) return { loans, totalCount: 0 };
  // A search, id list or pool page past the end carries no row, hence no count.
  return { loans, totalCount: (await poolOf(db).query<{ total: number }>(loanCountSql(filter))).rows[0]?.total ?? 0 };
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
 * fetched as the consumer reads). The connection returns to the pool when the stream ends, fails
 * or is destroyed (a client that hangs up).
 */
export async function streamLoanCsvRows(db: Database, filter: LoanListFilter): Promise<Readable> {
  const client = await poolOf(db).connect();
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
  return stream;
}
