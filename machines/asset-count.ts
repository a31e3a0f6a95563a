// The dashboard's Assets tile: how many assets the current organization holds (a first page of
// the asset list with the default roles; its totalCount). The screen starts one actor per
// organization, so switching organizations counts again.
import { assign, fromPromise, setup } from 'xstate';
import type { LoanListQuery } from '../src/contract/loans';
import { DEFAULT_PAGE_SIZE } from '../src/domain/constants';
import { DEFAULT_ROLE_FILTER } from '../src/domain/loan';

/** The asset list query whose totalCount is the organization's asset count. */
export const ASSET_COUNT_QUERY: LoanListQuery = { limit: DEFAULT_PAGE_SIZE, offset: 0, participantRoles: DEFAULT_ROLE_FILTER.join(',') };

export interface AssetCountContext {
  readonly totalCount: number | null;
}

export type AssetCountEvent = { type: 'assetCount.retry' };

export const assetCountMachine = setup({
  types: {
    context: {} as AssetCountContext,
    events: {} as AssetCountEvent,
  },
  actors: {
    // Provided by the app: GET v2 /loans, answering the totalCount; aborted with `signal`.
    countAssets: fromPromise<number, { query: LoanListQuery }>(async () => {
      throw new Error('countAssets is provided by the app');
    }),
  },
}).createMachine({
  id: 'assetCount',
  context: { totalCount: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'countAssets',
        input: { query: ASSET_COUNT_QUERY },
        onDone: { target: 'loaded', actions: assign({ totalCount: ({ event }) => event.output }) },
        onError: { target: 'failed' },
      },
    },
    loaded: {},
    failed: {
      on: { 'assetCount.retry': { target: 'loading' } },
    },
  },
});

export const selectAssetCount = (snapshot: { context: AssetCountContext }): number | null => snapshot.context.totalCount;
