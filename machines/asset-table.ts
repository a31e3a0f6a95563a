// The asset table of /assets/assets (SPEC sections 2, 4 and 9): one page of the organization's
// loans at a time, loaded on the server with the filters (role, search debounced 500 ms, date),
// sort and paging of the view that the URL carries; row selection for the CSV export.
import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { LoanList, LoanListItem, LoanSortColumn } from '../src/contract/loans';
import {
  clampPage,
  nextSort,
  normalizeRoles,
  pageCount,
  pageSummary,
  sameView,
  type AssetListView,
  type FilterableRole,
  type PageSize,
  toggleSelectedId,
  togglePageSelection,
} from '../src/domain/asset-table';
import { SEARCH_DEBOUNCE_MS } from '../src/domain/constants';
import type { DateFilter } from '../src/domain/date-filters';

export interface AssetTableInput {
  /** The view the URL names when the screen opens. */
  readonly view: AssetListView;
}

export interface AssetTableContext {
  /** The view shown (and in the URL): paging, filters, sort. */
  readonly view: AssetListView;
  /** What the search box holds; it becomes `view.query` after the debounce. */
  readonly searchText: string;
  readonly rows: readonly LoanListItem[];
  readonly totalCount: number;
  /** Selected loan ids; kept across pages and sorts, dropped when the filters change. */
  readonly selectedIds: readonly string[];
  /**
   * The current history entry was made by the search: the next settled search replaces it, so
   * the back button steps over the pauses of one search to the view before it.
   */
  readonly searchEntry: boolean;
}

export type AssetTableEvent =
  | { type: 'filters.search'; text: string }
  | { type: 'filters.roles'; roles: readonly FilterableRole[] }
  | { type: 'filters.date'; filter: DateFilter | null }
  | { type: 'page.go'; page: number }
  | { type: 'page.size'; limit: PageSize }
  | { type: 'sort.toggle'; column: LoanSortColumn }
  | { type: 'selection.toggle'; loanId: string }
  | { type: 'selection.togglePage' }
  | { type: 'selection.clear' }
  /** The URL changed outside the table (back button, a link): show the view it names. */
  | { type: 'view.sync'; view: AssetListView }
  | { type: 'list.retry' };

type Context = AssetTableContext;

const pageIds = (context: Context) => context.rows.map((row) => row.loanId);
const lastPage = (context: Context) => pageCount(context.totalCount, context.view.limit);
/** The view after a filter change: back to page 1, selection dropped. */
const filtered = (context: Context, change: Partial<AssetListView>): Partial<Context> => ({
  view: { ...context.view, ...change, page: 1 },
  selectedIds: [],
});

/** The new view becomes a history entry (the back button returns to the one before). */
const pushView = { type: 'showView', params: ({ context }: { context: Context }) => ({ view: context.view, replace: false }) } as const;
/** A corrected view (clamped page) replaces the entry that named it. */
const replaceView = { type: 'showView', params: ({ context }: { context: Context }) => ({ view: context.view, replace: true }) } as const;
/** A settled search: a new entry, or in place of the one a search made just before. */
const searchView = {
  type: 'showView',
  params: ({ context }: { context: Context }) => ({ view: context.view, replace: context.searchEntry }),
} as const;

export const assetTableMachine = setup({
  types: {
    input: {} as AssetTableInput,
    context: {} as AssetTableContext,
    events: {} as AssetTableEvent,
  },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
  actors: {
    loadPage: fromPromise<LoanList, { view: AssetListView }>(async () => {
      throw new Error('loadPage is provided by the screen');
    }),
  },
  guards: {
    isOtherPage: ({ context, event }) => event.type === 'page.go' && clampPage(event.page, lastPage(context)) !== context.view.page,
    isOtherSize: ({ context, event }) => event.type === 'page.size' && event.limit !== context.view.limit,
    isOtherRoles: ({ context, event }) =>
      event.type === 'filters.roles' && normalizeRoles(event.roles).join() !== context.view.roles.join(),
    isOtherDate: ({ context, event }) => event.type === 'filters.date' && event.filter !== context.view.dateFilter,
    isOtherSearch: ({ context }) => context.searchText.trim() !== context.view.query,
    hasNoRoles: ({ context }) => context.view.roles.length === 0,
    isOtherView: ({ context, event }) => event.type === 'view.sync' && !sameView(event.view, context.view),
    isBeyondLastPage: ({ context, event }) => {
      const { totalCount } = (event as unknown as { output: LoanList }).output;
      return context.view.page > pageCount(totalCount, context.view.limit);
    },
  },
  actions: {
    /** Provided by the screen: puts the view in the URL (a new history entry, or in place). */
    showView: (_, _params: { view: AssetListView; replace: boolean }) => undefined,
    goToPage: assign(({ context, event }) => {
      assertEvent(event, 'page.go');
      return { view: { ...context.view, page: clampPage(event.page, lastPage(context)) } };
    }),
    setPageSize: assign(({ context, event }) => {
      assertEvent(event, 'page.size');
      return { view: { ...context.view, limit: event.limit, page: 1 } };
    }),
    setRoles: assign(({ context, event }) => {
      assertEvent(event, 'filters.roles');
      return filtered(context, { roles: normalizeRoles(event.roles) });
    }),
    setDateFilter: assign(({ context, event }) => {
      assertEvent(event, 'filters.date');
      return filtered(context, { dateFilter: event.filter });
    }),
    setSearchText: assign({
      searchText: ({ event }) => {
        assertEvent(event, 'filters.search');
        return event.text;
      },
    }),
    applySearch: assign(({ context }) => filtered(context, { query: context.searchText.trim() })),
    toggleSort: assign(({ context, event }) => {
      assertEvent(event, 'sort.toggle');
      return { view: { ...context.view, sort: nextSort(context.view.sort, event.column), page: 1 } };
    }),
    syncView: assign(({ context, event }) => {
      assertEvent(event, 'view.sync');
      const filtersChanged = !sameView(
        { ...event.view, page: 1, limit: context.view.limit, sort: null },
        { ...context.view, page: 1, sort: null },
      );
      // Another entry of the history is shown: the next search makes its own.
      return { view: event.view, searchText: event.view.query, selectedIds: filtersChanged ? [] : context.selectedIds, searchEntry: false };
    }),
    showPage: assign(({ event }) => {
      const { loans, totalCount } = (event as unknown as { output: LoanList }).output;
      return { rows: loans, totalCount };
    }),
    clampToLastPage: assign(({ context, event }) => {
      const { totalCount } = (event as unknown as { output: LoanList }).output;
      return { totalCount, view: { ...context.view, page: pageCount(totalCount, context.view.limit) } };
    }),
    toggleRow: assign({
      selectedIds: ({ context, event }) => {
        assertEvent(event, 'selection.toggle');
        return toggleSelectedId(context.selectedIds, event.loanId);
      },
    }),
    togglePage: assign({ selectedIds: ({ context }) => togglePageSelection(context.selectedIds, pageIds(context)) }),
    clearSelection: assign({ selectedIds: [] }),
    clearPage: assign({ rows: [], totalCount: 0 }),
    markSearchEntry: assign({ searchEntry: true }),
    endSearchEntry: assign({ searchEntry: false }),
  },
}).createMachine({
  id: 'assetTable',
  type: 'parallel',
  context: ({ input }) => ({
    view: input.view,
    searchText: input.view.query,
    rows: [],
    totalCount: 0,
    selectedIds: [],
    searchEntry: false,
  }),
  // The URL names the view in full (page and limit included) from the first render.
  entry: { type: 'showView', params: ({ context }) => ({ view: context.view, replace: true }) },
  states: {
    list: {
      initial: 'loading',
      on: {
        'page.go': { guard: 'isOtherPage', target: '.loading', actions: ['goToPage', pushView, 'endSearchEntry'] },
        'page.size': { guard: 'isOtherSize', target: '.loading', actions: ['setPageSize', pushView, 'endSearchEntry'] },
        'filters.roles': { guard: 'isOtherRoles', target: '.loading', actions: ['setRoles', pushView, 'endSearchEntry'] },
        'filters.date': { guard: 'isOtherDate', target: '.loading', actions: ['setDateFilter', pushView, 'endSearchEntry'] },
        'sort.toggle': { target: '.loading', actions: ['toggleSort', pushView, 'endSearchEntry'] },
        'view.sync': { guard: 'isOtherView', target: '.loading', actions: 'syncView' },
      },
      states: {
        loading: {
          tags: ['loading'],
          // With no role chosen nothing can match: no list is asked for (its invoke never starts).
          always: { guard: 'hasNoRoles', target: 'noRoles' },
          invoke: {
            src: 'loadPage',
            input: ({ context }) => ({ view: context.view }),
            onDone: [
              // The list shrank (or a link named a page past its end): show its last page.
              { guard: 'isBeyondLastPage', target: 'loading', reenter: true, actions: ['clampToLastPage', replaceView] },
              { target: 'ready', actions: 'showPage' },
            ],
            onError: { target: 'failed' },
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
        /** The role filter is empty: the table asks for a role; choosing one loads again. */
        noRoles: { entry: 'clearPage' },
      },
    },
    search: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'filters.search': { target: 'debouncing', actions: 'setSearchText' } },
        },
        debouncing: {
          // Each keystroke restarts the delay (re-entering only this region, never the list).
          on: { 'filters.search': { target: 'debouncing', reenter: true, actions: 'setSearchText' } },
          after: {
            debounce: [
              {
                guard: 'isOtherSearch',
                target: ['idle', '#assetTable.list.loading'],
                actions: ['applySearch', searchView, 'markSearchEntry'],
              },
              { target: 'idle' },
            ],
          },
        },
      },
    },
  },
});

type AssetTableSnapshot = SnapshotFrom<typeof assetTableMachine>;

export const selectView = (snapshot: AssetTableSnapshot): AssetListView => snapshot.context.view;
export const selectSearchText = (snapshot: AssetTableSnapshot): string => snapshot.context.searchText;
export const selectRows = (snapshot: AssetTableSnapshot): readonly LoanListItem[] => snapshot.context.rows;
export const selectTotalCount = (snapshot: AssetTableSnapshot): number => snapshot.context.totalCount;
export const selectSelectedIds = (snapshot: AssetTableSnapshot): readonly string[] => snapshot.context.selectedIds;
export const selectIsLoading = (snapshot: AssetTableSnapshot): boolean => snapshot.hasTag('loading');
export const selectHasFailed = (snapshot: AssetTableSnapshot): boolean => snapshot.matches({ list: 'failed' });
/** No role chosen in the filter: nothing is loaded and the table asks for one. */
export const selectNeedsRole = (snapshot: AssetTableSnapshot): boolean => snapshot.matches({ list: 'noRoles' });
/** Loaded, and nothing matches: the empty state. */
export const selectIsEmpty = (snapshot: AssetTableSnapshot): boolean =>
  snapshot.matches({ list: 'ready' }) && snapshot.context.rows.length === 0;
/** Rows have arrived at least once (later loads keep them on screen, marked busy). */
export const selectHasRows = (snapshot: AssetTableSnapshot): boolean => snapshot.context.rows.length > 0;
export const selectPageCount = (snapshot: AssetTableSnapshot): number => lastPage(snapshot.context);
export const selectPageSummary = (snapshot: AssetTableSnapshot): string =>
  pageSummary(snapshot.context.view.page, snapshot.context.view.limit, snapshot.context.totalCount);
/** How much of the shown page is selected, for the header checkbox. */
export const selectPageSelection = (snapshot: AssetTableSnapshot): 'all' | 'some' | 'none' => {
  const ids = pageIds(snapshot.context);
  const chosen = ids.filter((id) => snapshot.context.selectedIds.includes(id)).length;
  return chosen === 0 ? 'none' : chosen === ids.length ? 'all' : 'some';
};
