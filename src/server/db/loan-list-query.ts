// The SQL of the asset list over loan_list_entries (see the migration 0001_loan_list): one filter
// clause for the JSON page, its count and the CSV, so the three always agree. Exported as text
// and parameters so the bench can time the raw query beside the API.
import type { FilterableRole, LoanSortColumn, SortDirection } from '../../contract/loans';
import { assetSearchText, MIN_SEARCH_CHARACTERS, searchPieces } from '../../domain/asset-search';
import { DEACTIVATION_EVENT_TYPES } from '../../domain/deactivation';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../../domain/loan';
import { ALL_ROLES_MASK, LOAN_ROLE_BITS, roleMask } from './loan-list-index';

/** What a list, count or CSV selects: the loans on which one organization holds one of the roles. */
export interface LoanListFilter {
  readonly participantId: string;
  readonly roles: readonly FilterableRole[];
  /**
   * Case-insensitive substring of ULI, loan number, borrower "first last" or property address;
   * one without three characters between line breaks does not filter (assetSearchText).
   */
  readonly query?: string | undefined;
  /** Loans updated at or after this instant (ISO date-time with offset). */
  readonly updatedSince?: string | undefined;
  readonly loanIds?: readonly string[] | undefined;
  readonly poolId?: string | undefined;
  readonly sortBy?: LoanSortColumn | undefined;
  readonly sortDirection?: SortDirection | undefined;
}

export interface SqlQuery {
  readonly text: string;
  readonly values: unknown[];
}

/** The index column of each sortable column; each has a (participant_id, column, loan_id) index. */
export const SORT_KEYS: Readonly<Record<LoanSortColumn, string>> = {
  uli: 'uli',
  loanType: 'loan_type_label',
  tradeDate: 'trade_date',
  mortgageeOfRecord: 'mortgagee_of_record',
  status: 'status_rank',
  owner: 'owner_name',
  servicer: 'servicer_name',
  controller: 'controller_name',
  subServicer: 'sub_servicer_name',
  securedParty: 'secured_party_name',
};

/** Without sortBy: the most recently updated first. */
const DEFAULT_ORDER = { key: 'updated_at', descending: true } as const;

/** `%text%` for LIKE, with LIKE's own characters taken literally. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The holder keys of an organization's roles (loan_role_keys in SQL; loan_list_search.holders holds
 * them as uuids, loan_holder_keys): one key per role, and '<id>:DEFAULT' standing for SPEC's
 * default five together (one posting list, not five).
 */
export function roleKeys(participantId: string, roles: readonly FilterableRole[]): string[] {
  const hasDefault = DEFAULT_ROLE_FILTER.every((role) => roles.includes(role));
  const rest = hasDefault ? roles.filter((role) => !(DEFAULT_ROLE_FILTER as readonly string[]).includes(role)) : roles;
  return [...(hasDefault ? ['DEFAULT'] : []), ...rest].map((key) => `${participantId}:${key}`);
}

/** A whole number written into SQL text (never user text: the contract bounds the page size). */
function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`Not a whole number: ${value}`);
  return String(value);
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Past this many loans holding a line-break search's longest piece, its other pieces narrow them
 * further by the index; up to it, each candidate's part 2 row is matched whole (a primary key
 * lookup, some 15 to 30 µs, against some 5 to 10 ms for another piece's index and heap scan).
 */
export const NARROWING_CANDIDATES = 256;

/** How many characters of a line-break search's longest piece its first index scan reads, when digits are among them. */
export const NARROWING_WINDOW = 8;

const digitsIn = (characters: readonly string[]): number => characters.filter((character) => character >= '0' && character <= '9').length;

/**
 * The part of a piece the first index scan looks for. A GIN scan of pg_trgm reads the posting
 * lists of every trigram of its pattern, and the long ones of common trigrams ('ter', 'vie')
 * cost most: at a million loans '%3669 lakeview ter%' read 445 index and heap pages, '%3669 lak%'
 * 194 and '%lakeview%' 1,387. Digits (house numbers, zip codes, loan numbers) make rare trigrams,
 * so a long piece holding digits is looked for by its NARROWING_WINDOW characters with the most
 * digits (the first such window); a piece without digits is looked for whole, as its many
 * trigrams together are rarer than any window of them.
 */
export function narrowingWindow(piece: string): string {
  const characters = [...piece];
  if (characters.length <= NARROWING_WINDOW || digitsIn(characters) === 0) return piece;
  let best = 0;
  let bestDigits = -1;
  for (let start = 0; start + NARROWING_WINDOW <= characters.length; start++) {
    const digits = digitsIn(characters.slice(start, start + NARROWING_WINDOW));
    if (digits > bestDigits) [best, bestDigits] = [start, digits];
  }
  return characters.slice(best, best + NARROWING_WINDOW).join('');
}

/**
 * The loans that may match a line-break search, a superset of them (the whole text is matched
 * after): those whose rows hold the narrowing window of its longest piece of three characters or
 * more (the likeliest to be rare; its index scan is the one always run), and, only when that holds
 * more than NARROWING_CANDIDATES loans, the whole longest piece and each other such piece too. At a
 * million loans 'Sullivan\n3669 Lakeview Ter' read 5,708 rows for 'sullivan' to intersect them
 * with the one of the address.
 */
function narrowing(query: string, holders: string, params: Params): string {
  const pieces = [...new Set(searchPieces(query).filter((piece) => [...piece.trim()].length >= MIN_SEARCH_CHARACTERS))];
  const longest = pieces.reduce((best, piece) => ([...piece.trim()].length > [...best.trim()].length ? piece : best));
  const window = narrowingWindow(longest);
  const holding = (piece: string, gate = '') =>
    `SELECT c.loan_id FROM loan_list_search c WHERE ${gate}c.search LIKE lower(${params.add(likePattern(piece))}) AND c.holders && ${holders}`;
  const others = [...(window === longest ? [] : [longest]), ...pieces.filter((piece) => piece !== longest)];
  if (others.length === 0) return holding(longest);
  // The count gates the other scans as a one-time filter: below it PostgreSQL does not start them.
  const many = `(SELECT count(*) FROM first) > ${params.add(NARROWING_CANDIDATES)}::int`;
  return `WITH first AS MATERIALIZED (${holding(window)})
    SELECT loan_id FROM first WHERE NOT ${many}
    UNION ALL
    (SELECT loan_id FROM first WHERE ${many} INTERSECT ${others.map((piece) => holding(piece, `${many} AND `)).join(' INTERSECT ')})`;
}

/**
 * The table (as `e`, with the loan id and every sort key) and the WHERE clause of a filter. A
 * search reads loan_list_search, whose one GIN index narrows text and organization together;
 * every other list reads loan_list_entries by its (participant_id, ...) btree indexes.
 *
 * loan_list_search has two rows per loan (migration 0006): part 1 the address, part 2 ULI, loan
 * number and borrower. A part 2 row also holds the address (earlier_search) and is skipped when
 * that matches too, so each loan is found once. A line break can only match across fields, in
 * the whole text (loan_search_text: part 2's fields, a line break, the address): no index holds
 * that text, so the loans are first narrowed by the index to those whose rows hold the pieces
 * between line breaks long enough for trigrams (a piece holds no line break, so it lies within
 * one row's text; see narrowing), and only their part 2 rows are matched whole.
 */
function source(filter: LoanListFilter, params: Params): { table: string; where: string } {
  const conditions: string[] = [];
  let table = 'loan_list_entries e';
  const query = assetSearchText(filter.query);
  if (query) {
    table = 'loan_list_search e';
    const pattern = `lower(${params.add(likePattern(query))})`;
    const holders = `loan_holder_keys(${params.add(roleKeys(filter.participantId, filter.roles))}::text[])`;
    if (query.includes('\n')) {
      conditions.push(
        `e.part = 2`,
        `e.loan_id IN (${narrowing(query, holders, params)})`,
        `(e.search || E'\\n' || e.earlier_search) LIKE ${pattern}`,
      );
    } else {
      conditions.push(`e.search LIKE ${pattern}`, `e.earlier_search NOT LIKE ${pattern}`);
    }
    conditions.push(`e.holders && ${holders}`);
  } else {
    conditions.push(`e.participant_id = ${params.add(filter.participantId)}`);
    const mask = roleMask(filter.roles);
    if (mask !== ALL_ROLES_MASK) conditions.push(`(e.roles & ${params.add(mask)}::smallint) <> 0`);
  }
  if (filter.updatedSince !== undefined) conditions.push(`e.updated_at >= ${params.add(filter.updatedSince)}::timestamptz`);
  if (filter.loanIds !== undefined) conditions.push(`e.loan_id = ANY (${params.add(filter.loanIds)}::uuid[])`);
  if (filter.poolId !== undefined)
    conditions.push(`e.loan_id IN (SELECT pl.loan_id FROM pool_loans pl WHERE pl.pool_id = ${params.add(filter.poolId)})`);
  return { table, where: conditions.join(' AND ') };
}

interface Order {
  readonly key: string;
  readonly descending: boolean;
}

export function orderOf(filter: LoanListFilter): Order {
  return filter.sortBy ? { key: SORT_KEYS[filter.sortBy], descending: filter.sortDirection === 'desc' } : DEFAULT_ORDER;
}

/** `key, loan_id` in one direction: the loan id breaks ties, so the order is total and pages are stable. */
function orderBy(alias: string, keyColumn: string, descending: boolean): string {
  const direction = descending ? 'DESC' : 'ASC';
  return `${alias}.${keyColumn} ${direction}, ${alias}.loan_id ${direction}`;
}

/** True when only participant, roles and date filter: the count comes from loan_list_counts. */
export const isCountedFilter = (filter: LoanListFilter): boolean =>
  !assetSearchText(filter.query) && filter.loanIds === undefined && filter.poolId === undefined;

/** A search, an id list or a pool: sets read whole anyway, so the page query counts them in the same pass. */
export const isSmallSetFilter = (filter: LoanListFilter): boolean =>
  Boolean(assetSearchText(filter.query)) || filter.loanIds !== undefined || filter.poolId !== undefined;

/**
 * The exact number of matching loans, as a scalar expression. Without search, ids or pool it sums
 * loan_list_counts (per organization, UTC day and roles); a date filter adds the rows of its own
 * first day from the index. Otherwise it counts the filtered rows.
 */
function countExpression(filter: LoanListFilter, params: Params): string {
  if (!isCountedFilter(filter)) {
    const { table, where } = source(filter, params);
    return `(SELECT count(*) FROM ${table} WHERE ${where})`;
  }
  const participant = params.add(filter.participantId);
  const mask = params.add(roleMask(filter.roles));
  // Without a date: the totals (one row per roles mask); with one: the days after its own.
  if (filter.updatedSince === undefined) {
    return `(SELECT coalesce(sum(t.count), 0) FROM loan_list_totals t
    WHERE t.participant_id = ${participant} AND (t.roles & ${mask}::smallint) <> 0)`;
  }
  const counted = `SELECT coalesce(sum(c.count), 0) FROM loan_list_counts c
    WHERE c.participant_id = ${participant} AND (c.roles & ${mask}::smallint) <> 0`;
  const since = `${params.add(filter.updatedSince)}::timestamptz`;
  const firstDay = `SELECT count(*) FROM loan_list_entries e WHERE e.participant_id = ${participant} AND (e.roles & ${mask}::smallint) <> 0
      AND e.updated_at >= ${since} AND e.updated_at < loan_list_next_day(${since})`;
  return `((${counted} AND c.updated_on > loan_list_day(${since})) + (${firstDay}))`;
}

/** The exact number of matching loans (`total`). */
export function loanCountSql(filter: LoanListFilter): SqlQuery {
  const params = new Params();
  return { text: `SELECT ${countExpression(filter, params)}::int AS total`, values: params.values };
}

// The page leaves PostgreSQL as the contract's JSON text (loanListSchema), which the route sends
// as it is: no row parsing, object building or serializing on the server's single thread. Each
// loan's item is kept written in loan_list_items (migration 0018_loan_list_items); a page joins its
// ids there and joins the items into an array. The tests compare pages with the contract field by field.

/** The organization's roles on the loan (loan_list_entries.roles as `held`), as a JSON array of role names. */
const HELD_ROLES_JSON = `'[' || concat_ws(',', ${FILTERABLE_ROLES.map(
  (role) => `CASE WHEN (held.roles & ${LOAN_ROLE_BITS[role]}) <> 0 THEN '"${role}"' END`,
).join(', ')}) || ']'`;

/** A deactivation request of the loan waits: as the deactivation repository's own check reads it. */
const DEACTIVATION_PENDING = `(exists (SELECT 1 FROM deactivation_requests d WHERE d.loan_id = page.loan_id AND d.status = 'SUBMITTED')
    OR exists (SELECT 1 FROM loan_events ev WHERE ev.loan_id = page.loan_id
      AND ev.event_type = '${DEACTIVATION_EVENT_TYPES.requested}' AND ev.state = 'Requested'))`;

/**
 * The list items of the loans in `page` (loan_id, sort_key), with the keys that order them. The
 * stored item is the same for every organization; what depends on the caller (its roles) or on
 * requests (a deactivation waiting) is added per page: an index-only lookup and two index probes
 * per row, ten rows a page.
 */
const items = (participant: string): string => `SELECT left(i.item, -1) || ',"heldRoles":' || ${HELD_ROLES_JSON}
    || ',"deactivationPending":' || ${DEACTIVATION_PENDING}::text || '}' AS item, page.sort_key, page.loan_id
  FROM page JOIN loan_list_items i ON i.loan_id = page.loan_id
  LEFT JOIN loan_list_entries held ON held.participant_id = ${participant} AND held.loan_id = page.loan_id`;

/** The page's items as one JSON array text, in the list order ('[]' for none). */
const itemsArray = (order: string): string => `'[' || coalesce(string_agg(p.item, ',' ORDER BY ${order}), '') || ']' AS loans`;

export interface LoanPageRequest {
  readonly limit: number;
  readonly offset: number;
}

/**
 * One page of list items and the exact count of the whole filtered set, in one statement (one
 * round trip, one snapshot): one row, `loans` (the items' JSON array as text) and `total` (null
 * for a search, id list or pool page past the end, which reads no row to count).
 *
 * - A search, an id list or a pool is read whole anyway: count(*) OVER () counts it in the same pass.
 * - Otherwise the count comes first (loan_list_counts), and a page past the middle of the set is
 *   read from the other end: the same rows, by a short backward scan of the sort index instead
 *   of skipping most of the set. Both scans are planned; a one-time filter runs only one.
 */
export function loanListSql(filter: LoanListFilter, page: LoanPageRequest): SqlQuery {
  const params = new Params();
  const order = orderOf(filter);
  const ascending = orderBy('e', order.key, order.descending);
  const descending = orderBy('e', order.key, !order.descending);
  const pageOrder = orderBy('p', 'sort_key', order.descending);
  if (isSmallSetFilter(filter)) {
    const { table, where } = source(filter, params);
    const text = `WITH page AS MATERIALIZED (
  SELECT e.loan_id, e.${order.key} AS sort_key, count(*) OVER () AS total
  FROM ${table}
  WHERE ${where}
  ORDER BY ${ascending}
  LIMIT ${params.add(page.limit)} OFFSET ${params.add(page.offset)}
)
SELECT ${itemsArray(pageOrder)}, min(page_total.total)::int AS total
FROM (SELECT max(total) AS total FROM page) page_total LEFT JOIN LATERAL (${items(params.add(filter.participantId))}) p ON true`;
    return { text, values: params.values };
  }
  const count = countExpression(filter, params);
  const { table, where } = source(filter, params);
  // The page size (one of four) and a first page's offset are written into the text: with them as
  // parameters PostgreSQL guesses a LIMIT reads a tenth of the rows, finds its generic plan too
  // dear and plans the statement again on every call (pg_prepared_statements: 0 generic plans in
  // 700). With them literal the prepared statement settles on its generic plan after five calls.
  const limit = `${integerLiteral(page.limit)}::int`;
  const offset = page.offset === 0 ? '0::int' : `${params.add(page.offset)}::int`;
  const text = `WITH total AS MATERIALIZED (SELECT ${count}::int AS n),
bounds AS MATERIALIZED (
  SELECT greatest(least(${limit}, n - ${offset}), 0) AS rows, greatest(n - ${offset} - ${limit}, 0) AS back,
    n - ${offset} - greatest(least(${limit}, n - ${offset}), 0) < ${offset} AS from_end, ${offset} AS skip
  FROM total
),
forward AS MATERIALIZED (
  SELECT e.loan_id, e.${order.key} AS sort_key FROM ${table}
  WHERE ${where} AND NOT (SELECT from_end FROM bounds)
  ORDER BY ${ascending} LIMIT ${limit} OFFSET (SELECT skip FROM bounds)
),
backward AS MATERIALIZED (
  SELECT e.loan_id, e.${order.key} AS sort_key FROM ${table}
  WHERE ${where} AND (SELECT from_end FROM bounds)
  ORDER BY ${descending} LIMIT ${limit} OFFSET (SELECT back FROM bounds)
),
page AS (
  SELECT loan_id, sort_key FROM forward
  UNION ALL
  SELECT b.loan_id, b.sort_key FROM (
    SELECT e.*, row_number() OVER (ORDER BY ${orderBy('e', 'sort_key', !order.descending)}) AS position FROM backward e
  ) b WHERE b.position <= (SELECT rows FROM bounds)
)
SELECT ${itemsArray(pageOrder)}, min(total.n) AS total FROM total LEFT JOIN LATERAL (${items(params.add(filter.participantId))}) p ON true`;
  return { text, values: params.values };
}

/**
 * What the text of loanListSql depends on, beside the parameter values: the same shape, the same
 * text (a test enumerates every shape to hold this). Undefined for a search, an id list or a pool,
 * whose statements are not prepared by name.
 */
export function loanListShape(filter: LoanListFilter, page: LoanPageRequest): string | undefined {
  if (isSmallSetFilter(filter)) return undefined;
  const order = orderOf(filter);
  const allRoles = roleMask(filter.roles) === ALL_ROLES_MASK;
  return `${order.key}:${order.descending}:${allRoles}:${filter.updatedSince !== undefined}:${page.limit}:${page.offset === 0}`;
}

/**
 * Every matching row for the CSV, in the list order, as arrays in LoanCsvRow's column order
 * (borrower and address joined here, so fewer fields cross the wire).
 */
export function loanCsvSql(filter: LoanListFilter): SqlQuery {
  const params = new Params();
  const order = orderOf(filter);
  const { table, where } = source(filter, params);
  const text = `SELECT l.id, l.uli, l.loan_number, l.loan_type, l.trade_date::text, l.mortgagee_of_record, e.status_rank,
  l.borrower_first_name || ' ' || l.borrower_last_name,
  l.property_street1 || coalesce(', ' || l.property_street2, '') || ', ' || l.property_city || ', ' || l.property_state
    || ' ' || l.property_zip,
  e.owner_name, e.servicer_name, e.controller_name, e.sub_servicer_name, e.secured_party_name
FROM ${table} JOIN loans l ON l.id = e.loan_id
WHERE ${where}
ORDER BY ${orderBy('e', order.key, order.descending)}`;
  return { text, values: params.values };
}

/** The ids of the matching loans (no order), at most `limit`: the set a batch download over the filters takes. */
export function loanIdsSql(filter: LoanListFilter, limit: number): SqlQuery {
  const params = new Params();
  const { table, where } = source(filter, params);
  return { text: `SELECT e.loan_id FROM ${table} WHERE ${where} LIMIT ${params.add(limit)}`, values: params.values };
}
