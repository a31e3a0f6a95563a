// The pools list (SPEC sections 2 and 9), a configuration of the shared list (paged-list.ts):
// completed pools, optionally only those completed in the last 30 days (one month on this
// filter, computed in the browser's time zone), a page at a time. GET v1 /pools answers every
// pool at once, so it is a whole list: paging needs no call. Range, page and limit live in the URL.
import type { PoolListQuery } from '../src/contract/pools';
import { parseAssetListView, VIEW_PARAMS } from '../src/domain/asset-table';
import { DEFAULT_PAGE_SIZE } from '../src/domain/constants';
import { dateFilterStart } from '../src/domain/date-filters';
import type { ListView } from './paged-list';

export const POOL_RANGES = ['all', 'last30Days'] as const;
export type PoolRange = (typeof POOL_RANGES)[number];
/** The URL parameter that carries the range (`?completed=last30Days`); absent means all. */
export const POOL_RANGE_PARAM = 'completed';

export const parsePoolRange = (value: string | null): PoolRange => (value === 'last30Days' ? 'last30Days' : 'all');

/** SPEC sections 7 and 9: state=COMPLETE, and for the last 30 days the start of the local day one month ago, with its offset. */
export function poolListQuery(range: PoolRange, now: Date): PoolListQuery {
  return range === 'last30Days'
    ? { state: 'COMPLETE', completedAfter: dateFilterStart('last30Days', now, 'month') }
    : { state: 'COMPLETE' };
}

export interface PoolsView extends ListView {
  readonly range: PoolRange;
}

/** The view a URL names (page and limit read as the asset list reads them). */
export function parsePoolsView(search: string): PoolsView {
  const { page, limit } = parseAssetListView(search);
  return { page, limit, range: parsePoolRange(new URLSearchParams(search).get(POOL_RANGE_PARAM)) };
}

/** Page and limit unless both are the first page of the default size (the range links), then the range when it is not all. */
export function serializePoolsView(view: PoolsView): string {
  const search = new URLSearchParams();
  if (view.page !== 1 || view.limit !== DEFAULT_PAGE_SIZE) {
    search.set(VIEW_PARAMS.page, String(view.page));
    search.set(VIEW_PARAMS.limit, String(view.limit));
  }
  if (view.range !== 'all') search.set(POOL_RANGE_PARAM, view.range);
  return search.size ? `?${search.toString()}` : '';
}

/** The list's input: a whole list of pools, named by their ids. */
export const poolsListInput = (view: PoolsView) => ({ view, idKey: 'id', wholeList: true }) as const;
