// The asset table of /assets/assets (SPEC sections 2, 4 and 9): the shared list (paged-list.ts,
// paged and sorted on the server, selection for the CSV export and the batch download) with the
// filters of the organization's loans: roles, date and the search, which settles 500 ms after
// the last keystroke. A settled search replaces the history entry the one before it made, so
// Back steps over the pauses of one search to the view before it.
import { assertEvent, assign, sendTo, setup, type SnapshotFrom } from 'xstate';
import { assetSearchText } from '../src/domain/asset-search';
import { normalizeRoles, type AssetListView, type FilterableRole } from '../src/domain/asset-table';
import { SEARCH_DEBOUNCE_MS } from '../src/domain/constants';
import type { DateFilter } from '../src/domain/date-filters';
import {
  listFilterEvent,
  pagedListMachine,
  type ListView,
  type PagedListParentEvent,
  type PagedListRef,
  type PagedListSnapshot,
} from './paged-list';

export interface AssetTableInput {
  /** The view the URL names when the screen opens. */
  readonly view: AssetListView;
}

export interface AssetTableContext {
  readonly view: AssetListView;
  /** What the search box holds; the list's query after the debounce. */
  readonly searchText: string;
}

export type AssetTableEvent =
  | { type: 'filters.search'; text: string }
  | { type: 'filters.roles'; roles: readonly FilterableRole[] }
  | { type: 'filters.date'; filter: DateFilter | null }
  | PagedListParentEvent;

const filter = (filters: Partial<AssetListView>, merge?: string) => listFilterEvent<AssetListView>(filters, merge);

export const assetTableMachine = setup({
  types: { input: {} as AssetTableInput, context: {} as AssetTableContext, events: {} as AssetTableEvent },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
  actors: {
    // Provided by the screen: the list over GET v2 /loans (assets-actors.ts).
    list: pagedListMachine,
  },
  actions: {
    setSearchText: assign({
      searchText: ({ event }) => {
        assertEvent(event, 'filters.search');
        return event.text;
      },
    }),
    applySearch: sendTo('list', ({ context }) => filter({ query: context.searchText.trim() }, 'search')),
    applyRoles: sendTo('list', ({ event }) => {
      assertEvent(event, 'filters.roles');
      return filter({ roles: normalizeRoles(event.roles) });
    }),
    applyDate: sendTo('list', ({ event }) => {
      assertEvent(event, 'filters.date');
      return filter({ dateFilter: event.filter });
    }),
    showSyncedQuery: assign({
      searchText: ({ event }) => {
        assertEvent(event, 'list.synced');
        return (event.view as AssetListView).query;
      },
    }),
  },
}).createMachine({
  id: 'assetTable',
  context: ({ input }) => ({ view: input.view, searchText: input.view.query }),
  invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'loanId' }) },
  on: {
    'filters.roles': { actions: 'applyRoles' },
    'filters.date': { actions: 'applyDate' },
    // The URL named another view (Back, a link): the box shows its search, and a pending one is dropped.
    'list.synced': { target: '.idle', actions: 'showSyncedQuery' },
  },
  initial: 'idle',
  states: {
    idle: {
      on: { 'filters.search': { target: 'debouncing', actions: 'setSearchText' } },
    },
    debouncing: {
      // Each keystroke restarts the delay.
      on: { 'filters.search': { target: 'debouncing', reenter: true, actions: 'setSearchText' } },
      after: { debounce: { target: 'idle', actions: 'applySearch' } },
    },
  },
});

type AssetTableSnapshot = SnapshotFrom<typeof assetTableMachine>;

export const selectList = (snapshot: AssetTableSnapshot): PagedListRef | undefined => snapshot.children.list;

/** No role chosen in the filter: nothing can match, so nothing is asked for (the list's `matchesNothing`). */
export const matchesNoAsset = (view: ListView): boolean => (view as AssetListView).roles.length === 0;
/** The list is empty because no role is chosen: the table asks for one. */
export const selectNeedsRole = (list: PagedListSnapshot): boolean => list.matches('empty') && matchesNoAsset(list.context.view);
export const selectSearchText = (snapshot: AssetTableSnapshot): string => snapshot.context.searchText;
/** Text is typed, but too short to filter by: the list shows as if the box were empty (src/domain/asset-search.ts). */
export const selectSearchTooShort = (snapshot: AssetTableSnapshot): boolean =>
  snapshot.context.searchText.trim() !== '' && assetSearchText(snapshot.context.searchText) === undefined;
