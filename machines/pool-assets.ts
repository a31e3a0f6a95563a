// The assets of one pool, /assets/pool-assets/:poolId (SPEC section 2): the pool's name and one
// page of its loans (page and limit in the URL), row selection for the pool CSV; a pool that is
// unknown or not the organization's is 'not found'.
import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isHttpError, isNotFound } from '../src/contract/http-error';
import type { LoanListItem } from '../src/contract/loans';
import type { PoolDetail } from '../src/contract/pools';
import { clampPage, pageCount, pageSummary, toggleSelectedId, togglePageSelection, type PageSize } from '../src/domain/asset-table';

export interface PoolPaging {
  readonly page: number;
  readonly limit: PageSize;
}

export interface PoolAssetsInput extends PoolPaging {
  readonly poolId: string;
  /** The pools view (path and query) this page was opened from; none: the default pools list. */
  readonly returnTo?: string | null;
}

export interface PoolAssetsContext {
  readonly poolId: string;
  readonly paging: PoolPaging;
  readonly poolName: string;
  readonly rows: readonly LoanListItem[];
  readonly totalCount: number;
  readonly selectedIds: readonly string[];
  /** Where 'Back to pools' goes (null: the default pools list); kept while the page is paged. */
  readonly returnTo: string | null;
}

export type PoolAssetsEvent =
  | { type: 'page.go'; page: number }
  | { type: 'page.size'; limit: PageSize }
  | { type: 'selection.toggle'; loanId: string }
  | { type: 'selection.togglePage' }
  | { type: 'selection.clear' }
  /** The URL's paging changed outside the table (back button, a link). */
  | { type: 'view.sync'; paging: PoolPaging }
  | { type: 'list.retry' };

type Context = PoolAssetsContext;
const lastPage = (context: Context) => pageCount(context.totalCount, context.paging.limit);
const pageIds = (context: Context) => context.rows.map((row) => row.loanId);
const outputOf = (event: unknown) => (event as { output: PoolDetail }).output;

const pushPaging = {
  type: 'showPaging',
  params: ({ context }: { context: Context }) => ({ paging: context.paging, replace: false }),
} as const;
const replacePaging = {
  type: 'showPaging',
  params: ({ context }: { context: Context }) => ({ paging: context.paging, replace: true }),
} as const;

export const poolAssetsMachine = setup({
  types: { input: {} as PoolAssetsInput, context: {} as PoolAssetsContext, events: {} as PoolAssetsEvent },
  actors: {
    loadPage: fromPromise<PoolDetail, { poolId: string; paging: PoolPaging }>(async () => {
      throw new Error('loadPage is provided by the screen');
    }),
  },
  guards: {
    isOtherPage: ({ context, event }) => event.type === 'page.go' && clampPage(event.page, lastPage(context)) !== context.paging.page,
    isOtherSize: ({ context, event }) => event.type === 'page.size' && event.limit !== context.paging.limit,
    isOtherPaging: ({ context, event }) =>
      event.type === 'view.sync' && (event.paging.page !== context.paging.page || event.paging.limit !== context.paging.limit),
    isBeyondLastPage: ({ context, event }) => context.paging.page > pageCount(outputOf(event).totalCount, context.paging.limit),
    /** 404 (unknown or another organization's pool) and 400 (a malformed id) both mean: no such pool. */
    isNoSuchPool: ({ event }) => {
      const error = (event as { error?: unknown }).error;
      return isNotFound(error) || (isHttpError(error) && error.status === 400);
    },
  },
  actions: {
    /** Provided by the screen: puts page and limit in the URL. */
    showPaging: (_, _params: { paging: PoolPaging; replace: boolean }) => undefined,
    goToPage: assign(({ context, event }) => {
      assertEvent(event, 'page.go');
      return { paging: { ...context.paging, page: clampPage(event.page, lastPage(context)) } };
    }),
    setPageSize: assign(({ event }) => {
      assertEvent(event, 'page.size');
      return { paging: { page: 1, limit: event.limit } };
    }),
    syncPaging: assign(({ event }) => {
      assertEvent(event, 'view.sync');
      return { paging: event.paging };
    }),
    showPage: assign(({ event }) => {
      const { pool, loans, totalCount } = outputOf(event);
      return { poolName: pool.name, rows: loans, totalCount };
    }),
    clampToLastPage: assign(({ context, event }) => {
      const { pool, totalCount } = outputOf(event);
      return { poolName: pool.name, totalCount, paging: { ...context.paging, page: pageCount(totalCount, context.paging.limit) } };
    }),
    toggleRow: assign({
      selectedIds: ({ context, event }) => {
        assertEvent(event, 'selection.toggle');
        return toggleSelectedId(context.selectedIds, event.loanId);
      },
    }),
    togglePage: assign({ selectedIds: ({ context }) => togglePageSelection(context.selectedIds, pageIds(context)) }),
    clearSelection: assign({ selectedIds: [] }),
  },
}).createMachine({
  id: 'poolAssets',
  context: ({ input }) => ({
    poolId: input.poolId,
    paging: { page: input.page, limit: input.limit },
    poolName: '',
    rows: [],
    totalCount: 0,
    selectedIds: [],
    returnTo: input.returnTo ?? null,
  }),
  entry: replacePaging,
  initial: 'loading',
  on: {
    'page.go': { guard: 'isOtherPage', target: '.loading', actions: ['goToPage', pushPaging] },
    'page.size': { guard: 'isOtherSize', target: '.loading', actions: ['setPageSize', pushPaging] },
    'view.sync': { guard: 'isOtherPaging', target: '.loading', actions: 'syncPaging' },
  },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({ poolId: context.poolId, paging: context.paging }),
        onDone: [
          { guard: 'isBeyondLastPage', target: 'loading', reenter: true, actions: ['clampToLastPage', replacePaging] },
          { target: 'ready', actions: 'showPage' },
        ],
        onError: [{ guard: 'isNoSuchPool', target: 'notFound' }, { target: 'failed' }],
      },
    },
    ready: {
      on: {
        'selection.toggle': { actions: 'toggleRow' },
        'selection.togglePage': { actions: 'togglePage' },
        'selection.clear': { actions: 'clearSelection' },
      },
    },
    failed: {
      on: { 'list.retry': { target: 'loading' } },
    },
    notFound: { type: 'final' },
  },
});

type PoolAssetsSnapshot = SnapshotFrom<typeof poolAssetsMachine>;

export const selectReturnTo = (snapshot: PoolAssetsSnapshot): string | null => snapshot.context.returnTo;
export const selectPoolName = (snapshot: PoolAssetsSnapshot): string => snapshot.context.poolName;
export const selectPaging = (snapshot: PoolAssetsSnapshot): PoolPaging => snapshot.context.paging;
export const selectRows = (snapshot: PoolAssetsSnapshot): readonly LoanListItem[] => snapshot.context.rows;
export const selectTotalCount = (snapshot: PoolAssetsSnapshot): number => snapshot.context.totalCount;
export const selectSelectedIds = (snapshot: PoolAssetsSnapshot): readonly string[] => snapshot.context.selectedIds;
export const selectIsLoading = (snapshot: PoolAssetsSnapshot): boolean => snapshot.hasTag('loading');
export const selectHasFailed = (snapshot: PoolAssetsSnapshot): boolean => snapshot.matches('failed');
export const selectIsNotFound = (snapshot: PoolAssetsSnapshot): boolean => snapshot.matches('notFound');
export const selectIsEmpty = (snapshot: PoolAssetsSnapshot): boolean => snapshot.matches('ready') && snapshot.context.rows.length === 0;
export const selectPageCount = (snapshot: PoolAssetsSnapshot): number => lastPage(snapshot.context);
export const selectPageSummary = (snapshot: PoolAssetsSnapshot): string =>
  pageSummary(snapshot.context.paging.page, snapshot.context.paging.limit, snapshot.context.totalCount);
export const selectPageSelection = (snapshot: PoolAssetsSnapshot): 'all' | 'some' | 'none' => {
  const ids = pageIds(snapshot.context);
  const chosen = ids.filter((id) => snapshot.context.selectedIds.includes(id)).length;
  return chosen === 0 ? 'none' : chosen === ids.length ? 'all' : 'some';
};
