// The SQL of the asset list over loan_list_entries (see the migration 0001_loan_list): one filter
// clause for the JSON page, its count and the CSV, so the three always agree. Exported as text
// and parameters so the bench can time the raw query beside the API.
import type { FilterableRole, LoanSortColumn, SortDirection } from '../../contract/loans';
import { ALL_ROLES_MASK, roleMask } from './loan-list-index';

/** What a list, count or CSV selects: the loans on which one organization holds one of the roles. */
export interface LoanListFilter {
  readonly participantId: string;
  readonly roles: readonly FilterableRole[];
  /** Case-insensitive substring of ULI, loan number, borrower "first last" or property address. */
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

/** loan_list_search.holders keys of an organization's roles (loan_role_keys in SQL). */
export const roleKeys = (participantId: string, roles: readonly FilterableRole[]): string[] =>
  roles.map((role) => `${participantId}:${role}`);

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The table (as `e`, with the loan id and every sort key) and the WHERE clause of a filter. A
 * search reads loan_list_search, whose one GIN index narrows text and organization together;
 * every other list reads loan_list_entries by its (participant_id, ...) btree indexes.
 */
function source(filter: LoanListFilter, params: Params): { table: string; where: string } {
  const conditions: string[] = [];
  let table = 'loan_list_entries e';
  if (filter.query) {
    table = 'loan_list_search e';
    conditions.push(`e.search LIKE lower(${params.add(likePattern(filter.query))})`);
    conditions.push(`e.holders && ${params.add(roleKeys(filter.participantId, filter.roles))}::text[]`);
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
  !filter.query && filter.loanIds === undefined && filter.poolId === undefined;

/** A search, an id list or a pool: sets read whole anyway, so the page query counts them in the same pass. */
export const isSmallSetFilter = (filter: LoanListFilter): boolean =>
  Boolean(filter.query) || filter.loanIds !== undefined || filter.poolId !== undefined;

/**
 * The exact number of matching loans. Without search, ids or pool it sums loan_list_counts (per
 * organization, UTC day and roles); a date filter adds the rows of its own first day from the index.
 */
export function loanCountSql(filter: LoanListFilter): SqlQuery {
  const params = new Params();
  if (isCountedFilter(filter)) {
    const participant = params.add(filter.participantId);
    const mask = params.add(roleMask(filter.roles));
    const counted = `SELECT coalesce(sum(c.count), 0) FROM loan_list_counts c WHERE c.participant_id = ${participant} AND (c.roles & ${mask}::smallint) <> 0`;
    if (filter.updatedSince === undefined) return { text: `SELECT (${counted})::int AS total`, values: params.values };
    const since = `${params.add(filter.updatedSince)}::timestamptz`;
    const firstDay = `SELECT count(*) FROM loan_list_entries e WHERE e.participant_id = ${participant} AND (e.roles & ${mask}::smallint) <> 0
      AND e.updated_at >= ${since} AND e.updated_at < loan_list_next_day(${since})`;
    return {
      text: `SELECT ((${counted} AND c.updated_on > loan_list_day(${since})) + (${firstDay}))::int AS total`,
      values: params.values,
    };
  }
  const { table, where } = source(filter, params);
  return { text: `SELECT count(*)::int AS total FROM ${table} WHERE ${where}`, values: params.values };
}

/** The five role entries of a loan as JSON: [{ role, state, name, participant, provenanceId }]. */
const PARTIES_JSON = `(SELECT json_agg(json_build_array(lp.role, lp.state, coalesce(pt.name, lp.name), lp.participant_id IS NOT NULL, lp.provenance_id))
    FROM loan_parties lp LEFT JOIN participants pt ON pt.id = lp.participant_id
    WHERE lp.loan_id = l.id AND lp.role IN ('OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY'))`;

export interface LoanPageWindow {
  readonly limit: number;
  readonly offset: number;
  /**
   * Read the page from the other end (the offset counted from the last row): the same rows, found
   * by a short backward index scan instead of skipping most of the set. Needs the exact count.
   */
  readonly fromEnd?: boolean;
  /** Add `total` (count(*) OVER ()) to every row: one pass when the filtered set is small anyway. */
  readonly withTotal?: boolean;
}

/**
 * One page of list items in the list order: loan columns plus `parties` (JSON) and, with
 * `withTotal`, the count of the whole filtered set.
 */
export function loanPageSql(filter: LoanListFilter, window: LoanPageWindow): SqlQuery {
  const params = new Params();
  const order = orderOf(filter);
  const { table, where } = source(filter, params);
  const scanDescending = window.fromEnd ? !order.descending : order.descending;
  const total = window.withTotal ? ', (count(*) OVER ())::int AS total' : '';
  const text = `WITH page AS MATERIALIZED (
  SELECT e.loan_id, e.${order.key} AS sort_key${total}
  FROM ${table}
  WHERE ${where}
  ORDER BY ${orderBy('e', order.key, scanDescending)}
  LIMIT ${params.add(window.limit)} OFFSET ${params.add(window.offset)}
)
SELECT l.id, l.uli, l.loan_type, l.trade_date::text AS trade_date, l.mortgagee_of_record, l.status,
  ${PARTIES_JSON} AS parties${window.withTotal ? ', page.total' : ''}
FROM page JOIN loans l ON l.id = page.loan_id
ORDER BY ${orderBy('page', 'sort_key', order.descending)}`;
  return { text, values: params.values };
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
  l.property_street1 || coalesce(', ' || l.property_street2, '') || ', ' || l.property_city || ', ' || l.property_state || ' ' || l.property_zip,
  e.owner_name, e.servicer_name, e.controller_name, e.sub_servicer_name, e.secured_party_name
FROM ${table} JOIN loans l ON l.id = e.loan_id
WHERE ${where}
ORDER BY ${orderBy('e', order.key, order.descending)}`;
  return { text, values: params.values };
}
