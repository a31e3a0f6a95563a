// The assets of one pool, /assets/pool-assets/:poolId (SPEC section 2): the shared list
// (paged-list.ts, paged on the server, page and limit in the URL, selection for the pool CSV)
// under the pool's name; a pool that is unknown or not the organization's is 'not found'.
import { assign, setup, type SnapshotFrom } from 'xstate';
import { isHttpError, isNotFound } from '../src/contract/http-error';
import type { PoolDetail } from '../src/contract/pools';
import { parseAssetListView } from '../src/domain/asset-table';
import { pagedListMachine, type ListPage, type ListView, type PagedListParentEvent, type PagedListRef } from './paged-list';

export interface PoolAssetsInput {
  /** The paging the URL names when the screen opens. */
  readonly view: ListView;
  /** The pools view (path and query) this page was opened from; none: the default pools list. */
  readonly returnTo?: string | null;
}

export interface PoolAssetsContext {
  readonly view: ListView;
  readonly poolName: string;
  /** Where 'Back to pools' goes (null: the default pools list); kept while the page is paged. */
  readonly returnTo: string | null;
}

/** A page of the pool's loans as the list takes it, the pool beside them. */
export type PoolAssetsPage = ListPage & { readonly pool: PoolDetail['pool'] };

/** Page and limit of the URL, read as the asset list reads them. */
export const parsePagingView = (search: string): ListView => {
  const { page, limit } = parseAssetListView(search);
  return { page, limit };
};
export const serializePagingView = ({ page, limit }: ListView): string =>
  `?${new URLSearchParams({ page: String(page), limit: String(limit) }).toString()}`;

export const poolAssetsMachine = setup({
  types: {
    input: {} as PoolAssetsInput,
    context: {} as PoolAssetsContext,
    events: {} as PagedListParentEvent,
  },
  actors: {
    // Provided by the screen: the list over GET v1 /pools/:id (pool-assets-actors.ts).
    list: pagedListMachine,
  },
  guards: {
    /** 404 (unknown or another organization's pool) and 400 (a malformed id) both mean: no such pool. */
    isNoSuchPool: ({ event }) =>
      event.type === 'list.failed' && (isNotFound(event.error) || (isHttpError(event.error) && event.error.status === 400)),
  },
}).createMachine({
  id: 'poolAssets',
  context: ({ input }) => ({ view: input.view, poolName: '', returnTo: input.returnTo ?? null }),
  initial: 'shown',
  states: {
    shown: {
      invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'loanId' }) },
      on: {
        'list.loaded': { actions: assign({ poolName: ({ event }) => (event.output as PoolAssetsPage).pool.name }) },
        'list.failed': { guard: 'isNoSuchPool', target: 'notFound' },
      },
    },
    notFound: { type: 'final' },
  },
});

type PoolAssetsSnapshot = SnapshotFrom<typeof poolAssetsMachine>;

export const selectList = (snapshot: PoolAssetsSnapshot): PagedListRef | undefined => snapshot.children.list;
export const selectReturnTo = (snapshot: PoolAssetsSnapshot): string | null => snapshot.context.returnTo;
export const selectPoolName = (snapshot: PoolAssetsSnapshot): string => snapshot.context.poolName;
export const selectIsNotFound = (snapshot: PoolAssetsSnapshot): boolean => snapshot.matches('notFound');
