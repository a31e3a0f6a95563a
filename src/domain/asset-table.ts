// Rules of the asset table (SPEC sections 2 and 9): its view (paging, filters, sort) as the URL
// carries it, page clamping, the pagination text and the list query sent to the server.
import type { LoanListQuery, LoanSortColumn, SortDirection } from '../contract/loans';
import { LOAN_SORT_COLUMNS } from '../contract/loans';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './constants';
import { dateFilterStart, isDateFilter, type DateFilter } from './date-filters';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from './loan';

export type FilterableRole = (typeof FILTERABLE_ROLES)[number];
export type PageSize = (typeof PAGE_SIZES)[number];

export interface TableSort {
  readonly column: LoanSortColumn;
  readonly direction: SortDirection;
}

/** What the asset table shows; every field lives in the URL. */
export interface AssetListView {
  readonly page: number;
  readonly limit: PageSize;
  readonly query: string;
  readonly dateFilter: DateFilter | null;
  readonly roles: readonly FilterableRole[];
  readonly sort: TableSort | null;
}

export const DEFAULT_ASSET_LIST_VIEW: AssetListView = {
  page: 1,
  limit: DEFAULT_PAGE_SIZE as PageSize,
  query: '',
  dateFilter: null,
  roles: DEFAULT_ROLE_FILTER,
  sort: null,
};

/** URL parameter names: `page` and `limit` as SPEC names them, the filters beside them. */
export const VIEW_PARAMS = {
  page: 'page',
  limit: 'limit',
  query: 'query',
  dateFilter: 'updated',
  roles: 'roles',
  sortBy: 'sortBy',
  sortDirection: 'sortDirection',
} as const;

export const isPageSize = (value: unknown): value is PageSize => (PAGE_SIZES as readonly unknown[]).includes(value);
const isRole = (value: string): value is FilterableRole => (FILTERABLE_ROLES as readonly string[]).includes(value);
const isSortColumn = (value: string | null): value is LoanSortColumn => (LOAN_SORT_COLUMNS as readonly (string | null)[]).includes(value);

/** A positive whole page number from the URL, else 1 (the upper clamp needs the count). */
function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * Roles in SPEC's filter order, without duplicates. None chosen stays none (the table then asks
 * for a role and loads nothing): falling back to the default five would undo the user's choice.
 */
export function normalizeRoles(roles: readonly string[]): readonly FilterableRole[] {
  return FILTERABLE_ROLES.filter((role) => roles.includes(role));
}

/** The `roles` URL parameter: absent is the default five, empty is none, nothing valid the default. */
function parseRoles(value: string | null): readonly FilterableRole[] {
  if (value === null) return DEFAULT_ROLE_FILTER;
  if (value === '') return [];
  const valid = value.split(',').filter(isRole);
  return valid.length ? normalizeRoles(valid) : DEFAULT_ROLE_FILTER;
}

/** The view a URL names; anything malformed falls back to its default. */
export function parseAssetListView(search: string | URLSearchParams): AssetListView {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const limit = Number(params.get(VIEW_PARAMS.limit));
  const dateFilter = params.get(VIEW_PARAMS.dateFilter);
  const sortBy = params.get(VIEW_PARAMS.sortBy);
  return {
    page: parsePage(params.get(VIEW_PARAMS.page)),
    limit: isPageSize(limit) ? limit : DEFAULT_ASSET_LIST_VIEW.limit,
    query: (params.get(VIEW_PARAMS.query) ?? '').trim().slice(0, 200),
    dateFilter: isDateFilter(dateFilter) ? dateFilter : null,
    roles: parseRoles(params.get(VIEW_PARAMS.roles)),
    sort: isSortColumn(sortBy) ? { column: sortBy, direction: params.get(VIEW_PARAMS.sortDirection) === 'desc' ? 'desc' : 'asc' } : null,
  };
}

const sameRoles = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((role, i) => role === b[i]);

/** The URL search of a view: page and limit always, other fields when they differ from the default. */
export function serializeAssetListView(view: AssetListView): string {
  const params = new URLSearchParams();
  params.set(VIEW_PARAMS.page, String(view.page));
  params.set(VIEW_PARAMS.limit, String(view.limit));
  if (view.query) params.set(VIEW_PARAMS.query, view.query);
  if (view.dateFilter) params.set(VIEW_PARAMS.dateFilter, view.dateFilter);
  if (!sameRoles(view.roles, DEFAULT_ROLE_FILTER)) params.set(VIEW_PARAMS.roles, view.roles.join(','));
  if (view.sort) {
    params.set(VIEW_PARAMS.sortBy, view.sort.column);
    params.set(VIEW_PARAMS.sortDirection, view.sort.direction);
  }
  return `?${params.toString()}`;
}

export const sameView = (a: AssetListView, b: AssetListView): boolean => serializeAssetListView(a) === serializeAssetListView(b);

/** Pages of a list: at least 1, so an empty list still has page 1 of 1. */
export const pageCount = (totalCount: number, limit: number): number => Math.max(1, Math.ceil(totalCount / limit));

/** SPEC section 9: the page is clamped between 1 and the page count. */
export const clampPage = (page: number, count: number): number => Math.min(Math.max(1, Math.trunc(page) || 1), Math.max(1, count));

export const pageOffset = (page: number, limit: number): number => (page - 1) * limit;

/** SPEC section 9: 'Page X of Y. Items A through B' (A is 0 for an empty list). */
export function pageSummary(page: number, limit: number, totalCount: number): string {
  const count = pageCount(totalCount, limit);
  const first = totalCount === 0 ? 0 : pageOffset(page, limit) + 1;
  const last = Math.min(page * limit, totalCount);
  return `Page ${page} of ${count}. Items ${first} through ${last}`;
}

/** Sorting a column cycles ascending, descending, none (SPEC section 4). */
export function nextSort(current: TableSort | null, column: LoanSortColumn): TableSort | null {
  if (current?.column !== column) return { column, direction: 'asc' };
  return current.direction === 'asc' ? { column, direction: 'desc' } : null;
}

/** The filters of the list, CSV and pool calls; the date filter resolved against `now` in the local zone. */
export function loanFiltersOf(view: AssetListView, now: Date): Omit<LoanListQuery, 'limit' | 'offset'> {
  return {
    ...(view.query ? { query: view.query } : {}),
    ...(view.dateFilter ? { oldestDateLastUpdated: dateFilterStart(view.dateFilter, now) } : {}),
    participantRoles: view.roles.join(','),
    ...(view.sort ? { sortBy: view.sort.column, sortDirection: view.sort.direction } : {}),
  };
}

/** GET v2 /loans query of a view. */
export function loanListQueryOf(view: AssetListView, now: Date): LoanListQuery {
  return { ...loanFiltersOf(view, now), limit: view.limit, offset: pageOffset(view.page, view.limit) };
}

/** Row selection: one id in or out. */
export const toggleSelectedId = (selected: readonly string[], id: string): string[] =>
  selected.includes(id) ? selected.filter((each) => each !== id) : [...selected, id];

/** The page's checkbox: selects every row of the page, or clears them when all are selected. */
export function togglePageSelection(selected: readonly string[], pageIds: readonly string[]): string[] {
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  return allSelected ? selected.filter((id) => !pageIds.includes(id)) : [...selected, ...pageIds.filter((id) => !selected.includes(id))];
}
