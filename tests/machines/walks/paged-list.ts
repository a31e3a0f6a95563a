// The walk of the paged-list machine: what its model-based test
// (tests/web/paged-list-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import { HttpError } from '../../../src/contract/http-error';
import type { pagedListMachine, ListPage } from '../../../machines/paged-list';
import { poolsListInput, type PoolsView } from '../../../machines/pools-list';
import type { Pool } from '../../../src/contract/pools';
import { samplePool } from '../../support/loan-fixtures';
import { loanIdOf, sampleLoanPage, samplePoolDetail } from '../../support/loan-list-fixtures';
import { DEFAULT_ASSET_LIST_VIEW, type AssetListView } from '../../../src/domain/asset-table';
import type { PoolAssetsPage } from '../../../machines/pool-assets';
import type { LoanList } from '../../../src/contract/loans';
import type { WalkerOptions } from '../support/model-coverage';

export const pools = [
  samplePool(1, { name: 'Harbor 2025-1', count: 1200, totalAmount: 98_765_432.5, dateCompleted: '2025-02-14' }),
  samplePool(2),
];

/** More than a page: the first of them is the one whose cells are checked. */
export const manyPools = [pools[0] ?? samplePool(1), ...Array.from({ length: 11 }, (_, index) => samplePool(index + 3))];

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const whole = (items: readonly Pool[]): ListPage => ({ items, totalCount: items.length });

export const allPools = (page: number, limit: 10 | 20): PoolsView => ({ page, limit, range: 'all' });

/** What the pools screen can send: paging, its range links (view.sync) and 'Try again'. */
export const POOLS_EVENTS = ['page.go', 'page.size', 'view.sync', 'list.reload'];

export const walk: WalkerOptions<typeof pagedListMachine> = {
  input: poolsListInput(allPools(1, 10)),
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.view, snapshot.context.items.length]),
  events: {
    'done: loadPage': [{ output: whole(pools) }, { output: whole(manyPools) }, { output: whole([]) }],
    'error: loadPage': { error: serverError },
    'page.go': [{ page: 2 }],
    'page.size': [{ limit: 20 }],
    // The back button to page 2; a link to a page past the last (shown as the last, the URL
    // replaced); the last-30-days link (another query: loaded again).
    'view.sync': [{ view: allPools(2, 10) }, { view: allPools(9, 10) }, { view: { ...allPools(1, 10), range: 'last30Days' } }],
  },
  filterEvents: (snapshot, event) => {
    if (!POOLS_EVENTS.includes(event.type) && !event.type.startsWith('xstate.')) return false;
    // 'Try again' shows only on a failed load.
    if (event.type === 'list.reload') return snapshot.matches('failed');
    const view = snapshot.context.view as PoolsView;
    // The range is walked from the first view; paging from the first page of ten of all pools.
    if (event.type === 'view.sync' && (event as unknown as { view: PoolsView }).view.range !== 'all')
      return snapshot.matches('loaded') && view.range === 'all' && view.page === 1 && view.limit === 10;
    // The pagination shows with the table (not on a failed load).
    if (snapshot.matches('failed')) return !['page.go', 'page.size', 'view.sync'].includes(event.type);
    return !['page.go', 'page.size', 'view.sync'].includes(event.type) || (view.page === 1 && view.limit === 10 && view.range === 'all');
  },
};

export const poolPage = (from: number, count: number, total: number): PoolAssetsPage => {
  const { pool, loans, totalCount } = samplePoolDetail(from, count, total);
  return { items: loans, totalCount, pool };
};

export const pool25 = poolPage(0, 10, 25);

export const emptyPool = poolPage(0, 0, 0);

/** What the pool's assets screen can send: paging, selection, the URL (view.sync) and 'Try again'. */
export const POOL_ASSETS_EVENTS = [
  'page.go',
  'page.size',
  'view.sync',
  'list.reload',
  'selection.toggle',
  'selection.togglePage',
  'selection.clear',
];

export const serverWalk: WalkerOptions<typeof pagedListMachine> = {
  input: { view: { page: 1, limit: 10 }, idKey: 'loanId' },
  serializeState: (snapshot) => {
    const { view, items, selectedIds, totalCount } = snapshot.context;
    return JSON.stringify([snapshot.value, view, items.length, selectedIds.length, totalCount]);
  },
  events: {
    'done: loadPage': [{ output: pool25 }, { output: emptyPool }],
    'error: loadPage': [{ error: serverError }],
    'page.go': [{ page: 2 }],
    'page.size': [{ limit: 20 }],
    'selection.toggle': [{ id: loanIdOf(0) }],
    'view.sync': [{ view: { page: 2, limit: 10 } }],
  },
  filterEvents: (snapshot, event) => {
    const { view, totalCount, selectedIds } = snapshot.context;
    const home = view.page === 1 && view.limit === 10;
    const settled = snapshot.matches('loaded') && totalCount > 0;
    if (!POOL_ASSETS_EVENTS.includes(event.type) && !event.type.startsWith('xstate.')) return false;
    if (event.type === 'list.reload') return snapshot.matches('failed');
    if (event.type.startsWith('xstate.done.actor') && (event as { output?: unknown }).output === emptyPool) return view.limit === 10;
    if (['page.go', 'page.size', 'view.sync'].includes(event.type)) return settled && home && selectedIds.length === 0;
    if (event.type === 'selection.clear' && selectedIds.length === 0) return false;
    if (event.type.startsWith('selection.')) return settled && home;
    return true;
  },
};

export const loans25 = sampleLoanPage(0, 10, 25);

export const loanPage = (list: LoanList): ListPage => ({ items: list.loans, totalCount: list.totalCount });

export const sortWalk: WalkerOptions<typeof pagedListMachine> = {
  input: { view: DEFAULT_ASSET_LIST_VIEW, idKey: 'loanId' },
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.view, snapshot.context.items.length]),
  events: {
    'done: loadPage': [{ output: loanPage(loans25) }, { output: loanPage(sampleLoanPage(0, 0, 0)) }],
    'error: loadPage': [{ error: serverError }],
    'sort.toggle': [{ column: 'uli' }],
    'list.filter': [{ filters: { dateFilter: 'today' } }],
  },
  filterEvents: (snapshot, event) => {
    const view = snapshot.context.view as AssetListView;
    if (!['sort.toggle', 'list.filter', 'list.reload'].includes(event.type) && !event.type.startsWith('xstate.')) return false;
    if (event.type === 'list.reload') return snapshot.matches('failed');
    // The sort cycle (ascending, descending, none) and the date filter, from a loaded list without it.
    if (event.type === 'sort.toggle') return snapshot.matches('loaded') && view.dateFilter === null;
    if (event.type === 'list.filter') return snapshot.matches('loaded') && view.dateFilter === null && view.sort == null;
    return true;
  },
};
