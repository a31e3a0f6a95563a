// The asset scenarios of `npm run bench`: the largest organization's list pages, sorts,
// searches and date filter over HTTP beside the same SQL straight on PostgreSQL, a loan's details
// and events, and the CSV of the whole set. The organization and the data the scenarios use
// (loan ids, search terms) are read from the database, so any seed size works.
import pg from 'pg';
import { LOAN_SORT_COLUMNS, type LoanSortColumn } from '../src/contract/loans';
import { PATHS } from '../src/contract/paths';
import { DEFAULT_ROLE_FILTER } from '../src/domain/loan';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import { defaultDatabasePoolSize } from '../src/server/config';
import type { LoanListFilter } from '../src/server/db/loan-list-query';
import { loanListStatement } from '../src/server/db/loan-list-repository';
import type { HttpRequestSpec, HttpScenarioSpec, SqlScenarioSpec, SqlStatement } from './bench-load';

/** The registry server's main pool size (DATABASE_POOL_SIZE's default): the SQL side queues on as many connections. */
export const SERVER_POOL_CONNECTIONS = defaultDatabasePoolSize();
/** SPEC's first page size. */
const PAGE_SIZE = 10;
/** Loans whose details and events the details scenario cycles through. */
const SAMPLE_LOANS = 200;
const DEMO_ADMIN = 'admin@registry.test';

export interface LoanBenchData {
  readonly participantId: string;
  readonly participantName: string;
  /** Loans on which it holds one of SPEC's default five roles. */
  readonly loans: number;
  /** A member who signs in for the scenarios (the demo admin when a member). */
  readonly email: string;
  readonly loanIds: readonly string[];
  /**
   * A piece of a borrower's last name and of a street name, as a user types them; the first one
   * and two letters of that piece (a search of one or two characters); the last name
   * and the street line pasted together, across the line break that joins the two fields.
   */
  readonly searchTerms: {
    readonly lastName: string;
    readonly street: string;
    readonly oneCharacter: string;
    readonly twoCharacters: string;
    readonly lineBreak: string;
  };
}

/** A piece a user would type: a few letters from inside the word, lower case. */
const piece = (word: string): string => (word.length > 6 ? word.slice(1, 6) : word).toLowerCase();

/** The organization holding SPEC's default roles on the most loans, and what its scenarios need. */
export async function loanBenchData(connectionString: string): Promise<LoanBenchData | undefined> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const largest = (
      await client.query<{ participant_id: string; name: string; loans: number }>(
        `SELECT lp.participant_id, p.name, count(DISTINCT lp.loan_id)::int AS loans
         FROM loan_parties lp JOIN participants p ON p.id = lp.participant_id
         WHERE lp.role = ANY($1::text[]) AND p.is_active
         GROUP BY lp.participant_id, p.name ORDER BY loans DESC, lp.participant_id LIMIT 1`,
        [[...DEFAULT_ROLE_FILTER]],
      )
    ).rows[0];
    if (!largest) return undefined;
    const member = (
      await client.query<{ email: string }>(
        `SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.participant_id = $1
         ORDER BY lower(u.email) = $2 DESC, u.email LIMIT 1`,
        [largest.participant_id, DEMO_ADMIN],
      )
    ).rows[0];
    if (!member) return undefined;
    // Loans spread over the whole set (every n-th by id), not the first ones a cache would hold.
    const sample = await client.query<{ id: string; borrower_last_name: string; property_street1: string }>(
      `SELECT l.id, l.borrower_last_name, l.property_street1 FROM (
         SELECT DISTINCT loan_id FROM loan_parties WHERE participant_id = $1 AND role = ANY($2::text[])
       ) o JOIN loans l ON l.id = o.loan_id
       WHERE abs(hashtext(l.id::text)) % greatest(1, $3::int / $4::int) = 0
       ORDER BY l.id LIMIT $4`,
      [largest.participant_id, [...DEFAULT_ROLE_FILTER], largest.loans, SAMPLE_LOANS],
    );
    const first = sample.rows[0];
    if (!first) return undefined;
    // The street name of '1234 Sycamore Ave': the words between the number and the suffix.
    const streetName = first.property_street1.replace(/^\d+\s+/, '').split(/\s+/)[0] ?? first.property_street1;
    return {
      participantId: largest.participant_id,
      participantName: largest.name,
      loans: largest.loans,
      email: member.email,
      loanIds: sample.rows.map((row) => row.id),
      searchTerms: {
        lastName: piece(first.borrower_last_name),
        street: piece(streetName),
        oneCharacter: piece(first.borrower_last_name).slice(0, 1),
        twoCharacters: piece(first.borrower_last_name).slice(0, 2),
        lineBreak: `${first.borrower_last_name}\n${first.property_street1}`,
      },
    };
  } finally {
    await client.end();
  }
}

/** One list view as the asset screen asks for it. */
export interface ListView {
  readonly name: string;
  readonly offset: number;
  readonly query?: string;
  readonly updatedSince?: string;
  readonly sortBy?: LoanSortColumn;
}

/** Midnight seven days ago, local time, with its offset: what the 'last week' filter sends. */
export function lastWeekInstant(now = new Date()): string {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 7);
  const offset = -start.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const date = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}`;
  return `${date}T00:00:00${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** A search as the bench names it: a line break shown as \n. */
const shown = (query: string): string => query.replaceAll('\n', '\\n');

/** The list views measured: first and last page, each sort column's first page, five searches, last week. */
export function listViews(data: LoanBenchData, updatedSince = lastWeekInstant()): ListView[] {
  const lastPageOffset = Math.max(0, Math.ceil(data.loans / PAGE_SIZE) - 1) * PAGE_SIZE;
  return [
    { name: 'list: first page', offset: 0 },
    { name: 'list: last page', offset: lastPageOffset },
    ...LOAN_SORT_COLUMNS.map((column): ListView => ({ name: `list: sort ${column}`, offset: 0, sortBy: column })),
    { name: `list: search '${data.searchTerms.lastName}' (last name)`, offset: 0, query: data.searchTerms.lastName },
    { name: `list: search '${data.searchTerms.street}' (street)`, offset: 0, query: data.searchTerms.street },
    ...(
      [
        [data.searchTerms.oneCharacter, 'one character'],
        [data.searchTerms.twoCharacters, 'two characters'],
        [data.searchTerms.lineBreak, 'line break'],
      ] as const
    ).map(([query, kind]): ListView => ({ name: `list: search '${shown(query)}' (${kind})`, offset: 0, query })),
    { name: 'list: updated in the last 7 days', offset: 0, updatedSince },
  ];
}

const filterOf = (data: LoanBenchData, view: ListView): LoanListFilter => ({
  participantId: data.participantId,
  roles: [...DEFAULT_ROLE_FILTER],
  query: view.query,
  updatedSince: view.updatedSince,
  sortBy: view.sortBy,
  sortDirection: 'asc',
});

export function listRequest(baseUrl: string, auth: Readonly<Record<string, string>>, data: LoanBenchData, view: ListView): HttpRequestSpec {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(view.offset) });
  if (view.query) params.set('query', view.query);
  if (view.updatedSince) params.set('oldestDateLastUpdated', view.updatedSince);
  if (view.sortBy) {
    params.set('sortBy', view.sortBy);
    params.set('sortDirection', 'asc');
  }
  return {
    method: 'GET',
    url: `${baseUrl}${PATHS.loans}?${params}`,
    headers: { ...auth, [PARTICIPANT_HEADER]: data.participantId },
    expectStatus: 200,
  };
}

/** The statement the list repository (listLoanPage) sends for a view: one, with its count, prepared alike. */
export function listStatements(data: LoanBenchData, view: ListView, _totalCount?: number): SqlStatement[] {
  return [loanListStatement(filterOf(data, view), { limit: PAGE_SIZE, offset: view.offset })];
}

export const sqlScenario = (name: string, connectionString: string, statements: SqlStatement[]): SqlScenarioSpec => ({
  kind: 'sql',
  name,
  connectionString,
  poolSize: SERVER_POOL_CONNECTIONS,
  statements,
});

/** The asset page's two calls at once, cycling through the sampled loans. */
export function detailsScenario(baseUrl: string, auth: Readonly<Record<string, string>>, data: LoanBenchData): HttpScenarioSpec {
  const headers = { ...auth, [PARTICIPANT_HEADER]: data.participantId };
  return {
    kind: 'http',
    name: 'loan details + events',
    groups: data.loanIds.map((id) => [
      { method: 'GET', url: baseUrl + PATHS.loanDetails(id), headers, expectStatus: 200 },
      { method: 'GET', url: baseUrl + PATHS.loanEvents(id), headers, expectStatus: 200 },
    ]),
  };
}
