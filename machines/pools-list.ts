// The pools screen (SPEC sections 2 and 9): completed pools, optionally only those completed in
// the last 30 days (one month on this filter), computed in the browser's time zone, shown a page
// at a time (SPEC section 9's sizes, page clamped to the page count). The range, page and limit
// live in the URL; the screen starts one actor per range, so a link, reload and the back button
// all show what the URL says. GET v1 /pools answers every pool at once: paging needs no call.
import { and, assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Pool, PoolListQuery } from '../src/contract/pools';
import { clampPage, pageCount, pageOffset, pageSummary, type PageSize } from '../src/domain/asset-table';
import { dateFilterStart } from '../src/domain/date-filters';

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

export interface PoolsPaging {
  readonly page: number;
  readonly limit: PageSize;
}

export interface PoolsListInput extends PoolsPaging {
  readonly range: PoolRange;
}

export interface PoolsListContext {
  readonly range: PoolRange;
  readonly pools: readonly Pool[];
  readonly paging: PoolsPaging;
}

export type PoolsListEvent =
  | { type: 'pools.retry' }
  | { type: 'page.go'; page: number }
  | { type: 'page.size'; limit: PageSize }
  /** The URL's paging changed outside the table (back button, a link). */
  | { type: 'view.sync'; paging: PoolsPaging };

type Context = PoolsListContext;
const lastPage = (context: Context, pools: readonly Pool[] = context.pools) => pageCount(pools.length, context.paging.limit);
const loadedPools = (event: unknown) => (event as { output: readonly Pool[] }).output;

const pushPaging = {
  type: 'showPaging',
  params: ({ context }: { context: Context }) => ({ paging: context.paging, replace: false }),
} as const;
const replacePaging = {
  type: 'showPaging',
  params: ({ context }: { context: Context }) => ({ paging: context.paging, replace: true }),
} as const;

export const poolsListMachine = setup({
  types: {
    input: {} as PoolsListInput,
    context: {} as PoolsListContext,
    events: {} as PoolsListEvent,
  },
  actors: {
    // Provided by the app: GET v1 /pools with the query, aborted with `signal`.
    loadPools: fromPromise<readonly Pool[], { query: PoolListQuery }>(async () => {
      throw new Error('loadPools is provided by the app');
    }),
  },
  guards: {
    hasPools: ({ event }) => 'output' in event && Array.isArray(event.output) && event.output.length > 0,
    /** The URL's page is past the pools that came: the last page shows, and the URL says so. */
    isBeyondLastPage: ({ context, event }) => context.paging.page > lastPage(context, loadedPools(event)),
    isOtherPage: ({ context, event }) => event.type === 'page.go' && clampPage(event.page, lastPage(context)) !== context.paging.page,
    isOtherSize: ({ context, event }) => event.type === 'page.size' && event.limit !== context.paging.limit,
    isOtherPaging: ({ context, event }) =>
      event.type === 'view.sync' && (event.paging.page !== context.paging.page || event.paging.limit !== context.paging.limit),
    /** A URL page past the last one: shown clamped, and the URL replaced to say so. */
    isSyncBeyondLastPage: ({ context, event }) =>
      event.type === 'view.sync' && event.paging.page > pageCount(context.pools.length, event.paging.limit),
  },
  actions: {
    /** Provided by the screen: puts page and limit in the URL (replacing the entry, or a new one). */
    showPaging: (_, _params: { paging: PoolsPaging; replace: boolean }) => undefined,
    showPools: assign({ pools: ({ event }) => loadedPools(event) }),
    clampToLastPage: assign({ paging: ({ context }) => ({ ...context.paging, page: lastPage(context) }) }),
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
  },
}).createMachine({
  id: 'poolsList',
  context: ({ input }) => ({ range: input.range, pools: [], paging: { page: input.page, limit: input.limit } }),
  // Before the pools come, the URL's paging is taken as it is (the load clamps it).
  on: { 'view.sync': { guard: 'isOtherPaging', actions: 'syncPaging' } },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadPools',
        // The date is taken when the request starts, so a retry after midnight asks for the new day.
        input: ({ context }) => ({ query: poolListQuery(context.range, new Date()) }),
        onDone: [
          {
            guard: and(['hasPools', 'isBeyondLastPage']),
            target: 'loaded',
            actions: ['showPools', 'clampToLastPage', replacePaging],
          },
          { guard: 'hasPools', target: 'loaded', actions: 'showPools' },
          { target: 'empty', actions: assign({ pools: [] }) },
        ],
        onError: { target: 'failed' },
      },
    },
    loaded: {
      on: {
        'page.go': { guard: 'isOtherPage', actions: ['goToPage', pushPaging] },
        'page.size': { guard: 'isOtherSize', actions: ['setPageSize', pushPaging] },
        'view.sync': [
          { guard: 'isSyncBeyondLastPage', actions: ['syncPaging', 'clampToLastPage', replacePaging] },
          { guard: 'isOtherPaging', actions: 'syncPaging' },
        ],
      },
    },
    empty: {},
    failed: {
      on: { 'pools.retry': { target: 'loading' } },
    },
  },
});

type PoolsListSnapshot = SnapshotFrom<typeof poolsListMachine>;

export const selectPools = (snapshot: PoolsListSnapshot): readonly Pool[] => snapshot.context.pools;
export const selectPoolRange = (snapshot: PoolsListSnapshot): PoolRange => snapshot.context.range;
export const selectPaging = (snapshot: PoolsListSnapshot): PoolsPaging => snapshot.context.paging;
/** The pools of the page shown. */
export const selectPagePools = (snapshot: PoolsListSnapshot): readonly Pool[] => {
  const { pools, paging } = snapshot.context;
  const start = pageOffset(paging.page, paging.limit);
  return pools.slice(start, start + paging.limit);
};
export const selectPageCount = (snapshot: PoolsListSnapshot): number => lastPage(snapshot.context);
export const selectPageSummary = (snapshot: PoolsListSnapshot): string =>
  pageSummary(snapshot.context.paging.page, snapshot.context.paging.limit, snapshot.context.pools.length);
