// The pools screen (SPEC sections 2 and 9): completed pools, optionally only those completed in
// the last 30 days (one month on this filter), computed in the browser's time zone. The range
// lives in the URL; the screen starts one actor per range, so a link, reload and the back
// button all show what the URL says.
import { assign, fromPromise, setup } from 'xstate';
import type { Pool, PoolListQuery } from '../src/contract/pools';
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

export interface PoolsListInput {
  readonly range: PoolRange;
}

export interface PoolsListContext {
  readonly range: PoolRange;
  readonly pools: readonly Pool[];
}

export type PoolsListEvent = { type: 'pools.retry' };

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
  },
}).createMachine({
  id: 'poolsList',
  context: ({ input }) => ({ range: input.range, pools: [] }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadPools',
        // The date is taken when the request starts, so a retry after midnight asks for the new day.
        input: ({ context }) => ({ query: poolListQuery(context.range, new Date()) }),
        onDone: [
          { guard: 'hasPools', target: 'loaded', actions: assign({ pools: ({ event }) => event.output }) },
          { target: 'empty', actions: assign({ pools: [] }) },
        ],
        onError: { target: 'failed' },
      },
    },
    loaded: {},
    empty: {},
    failed: {
      on: { 'pools.retry': { target: 'loading' } },
    },
  },
});

type PoolsListSnapshot = { context: PoolsListContext };

export const selectPools = (snapshot: PoolsListSnapshot): readonly Pool[] => snapshot.context.pools;
export const selectPoolRange = (snapshot: PoolsListSnapshot): PoolRange => snapshot.context.range;
