// The list every list screen is a configuration of (SPEC sections 5 and 9): the view (page and
// limit of SPEC's sizes, the page clamped to 1..page count, sort ascending, descending or none,
// and the screen's filters beside them), one page of items, the selection (one, several, all on
// the page; dropped when the page or the filters change), reload, and explicit loading, empty and
// failed states. It runs as a child of the screen's machine, which adds its filters and actions:
// that parent hears `list.loaded` (the load's whole answer) and `list.failed` (its error). Each
// change of the view is emitted as `list.view` (a new history entry, or one in place of the
// entry that named a corrected view) for the URL hook, which sends `view.sync` back when the URL
// changes outside the list (back button, a link).
import { and, assertEvent, assign, emit, enqueueActions, fromPromise, not, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  clampPage,
  pageCount,
  pageOffset,
  pageSummary,
  toggleSelectedId,
  togglePageSelection,
  type PageSize,
} from '../src/domain/asset-table';

export interface ListSort {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/** What a list shows; the screen's filters are further fields of the same object (all in the URL). */
export interface ListView {
  readonly page: number;
  readonly limit: PageSize;
  readonly sort?: ListSort | null;
}

/** A load's answer: the page's items (every item for a whole list) and how many match in all. */
export interface ListPage<Item = unknown> {
  readonly items: readonly Item[];
  readonly totalCount: number;
}

export interface PagedListInput {
  readonly view: ListView;
  /** The item field that names a row (what the selection holds). */
  readonly idKey: string;
  /** The load answers every item at once (GET v1 /pools): pages are cut here, and paging loads nothing. */
  readonly wholeList?: boolean;
}

export interface PagedListContext {
  readonly view: ListView;
  readonly idKey: string;
  readonly wholeList: boolean;
  /** The page's items (every item of a whole list), as last loaded. */
  readonly items: readonly unknown[];
  readonly totalCount: number;
  readonly selectedIds: readonly string[];
  /**
   * The merge key of the filter change that made the current history entry (a search being
   * typed): the next change with the same key replaces that entry, so Back skips its pauses.
   */
  readonly entryMerge: string | null;
}

export type PagedListEvent =
  | { type: 'page.go'; page: number }
  | { type: 'page.size'; limit: PageSize }
  | { type: 'sort.toggle'; column: string }
  /** The screen's filters changed: back to page 1, selection dropped. */
  | { type: 'list.filter'; filters: Readonly<Record<string, unknown>>; merge?: string }
  /** The URL changed outside the list (back button, a link): show the view it names. */
  | { type: 'view.sync'; view: ListView }
  /** Loads the page again (a retry after a failure, a refresh, after a change made elsewhere). */
  | { type: 'list.reload' }
  | { type: 'selection.toggle'; id: string }
  | { type: 'selection.togglePage' }
  | { type: 'selection.clear' };

/** The event a screen's machine sends its list when a filter changes (`merge` coalesces the URL writes of one kind). */
export const listFilterEvent = <View>(filters: Partial<View>, merge?: string): PagedListEvent => ({
  type: 'list.filter',
  filters: filters as Readonly<Record<string, unknown>>,
  ...(merge ? { merge } : {}),
});

/** Emitted for the URL: a new view, as a new history entry or in place of the current one. */
export type PagedListEmitted = { type: 'list.view'; view: ListView; replace: boolean };

/** What the parent (the screen's machine) is told. */
export type PagedListParentEvent =
  | { type: 'list.loaded'; output: ListPage }
  | { type: 'list.failed'; error: unknown }
  /** The URL named another view (what the parent shows of it, a search box, follows). */
  | { type: 'list.synced'; view: ListView };

type Context = PagedListContext;

const idOf = (context: Context, item: unknown): string => String((item as Record<string, unknown>)[context.idKey]);
const lastPage = (context: Context, totalCount = context.totalCount) => pageCount(totalCount, context.view.limit);
const outputOf = (event: unknown): ListPage => (event as { output: ListPage }).output;
const shownItems = (context: Context): readonly unknown[] => {
  if (!context.wholeList) return context.items;
  const start = pageOffset(context.view.page, context.view.limit);
  return context.items.slice(start, start + context.view.limit);
};
const pageIds = (context: Context) => shownItems(context).map((item) => idOf(context, item));
const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** Views are equal when every field is (filters included, in any order). */
export const sameListView = (a: object, b: object): boolean => {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return [...new Set([...Object.keys(x), ...Object.keys(y)])].every((key) => sameValue(x[key], y[key]));
};
/** Same filters and sort: a whole list already holds the items of the view. */
const sameQuery = (a: ListView, b: ListView) => sameListView({ ...a, page: 0, limit: 0 }, { ...b, page: 0, limit: 0 });

/** Sorting a column cycles ascending, descending, none (SPEC section 4). */
export function nextListSort(current: ListSort | null | undefined, column: string): ListSort | null {
  if (current?.column !== column) return { column, direction: 'asc' };
  return current.direction === 'asc' ? { column, direction: 'desc' } : null;
}

export const pagedListMachine = setup({
  types: {
    input: {} as PagedListInput,
    context: {} as PagedListContext,
    events: {} as PagedListEvent,
    emitted: {} as PagedListEmitted,
  },
  actors: {
    // Provided by the screen (pagedListOf): the page of the view, aborted with `signal`.
    loadPage: fromPromise<ListPage, { view: ListView }>(async () => {
      throw new Error('loadPage is provided by the screen');
    }),
  },
  guards: {
    /** Provided by a screen whose filters can name a view nothing matches (no role chosen): no call is made for it. */
    matchesNothing: (_args: { context: PagedListContext }) => false,
    pagesHere: ({ context }) => context.wholeList,
    isOtherPage: ({ context, event }) => event.type === 'page.go' && clampPage(event.page, lastPage(context)) !== context.view.page,
    isOtherSize: ({ context, event }) => event.type === 'page.size' && event.limit !== context.view.limit,
    isOtherFilter: ({ context, event }) =>
      event.type === 'list.filter' && !sameListView({ ...context.view, ...event.filters }, context.view),
    isOtherView: ({ context, event }) => event.type === 'view.sync' && !sameListView(event.view, context.view),
    isSameQuery: ({ context, event }) => event.type === 'view.sync' && sameQuery(event.view, context.view),
    /** The list shrank (or a link named a page past its end): the last page is shown instead. */
    isBeyondLastPage: ({ context, event }) => context.view.page > lastPage(context, outputOf(event).totalCount),
    hasNoItems: ({ event }) => outputOf(event).items.length === 0,
  },
  actions: {
    /** The new view becomes a history entry (Back returns to the one before). */
    pushView: emit(({ context }) => ({ type: 'list.view' as const, view: context.view, replace: false })),
    /** A corrected view (clamped page) replaces the entry that named it. */
    replaceView: emit(({ context }) => ({ type: 'list.view' as const, view: context.view, replace: true })),
    goToPage: assign(({ context, event }) => {
      assertEvent(event, 'page.go');
      return { view: { ...context.view, page: clampPage(event.page, lastPage(context)) }, selectedIds: [], entryMerge: null };
    }),
    setPageSize: assign(({ context, event }) => {
      assertEvent(event, 'page.size');
      return { view: { ...context.view, limit: event.limit, page: 1 }, selectedIds: [], entryMerge: null };
    }),
    toggleSort: assign(({ context, event }) => {
      assertEvent(event, 'sort.toggle');
      return { view: { ...context.view, sort: nextListSort(context.view.sort, event.column), page: 1 }, entryMerge: null };
    }),
    /** A new entry, or in place of the one the same kind of change (a search being typed) made just before. */
    applyFilter: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'list.filter');
      const view = { ...context.view, ...event.filters, page: 1 };
      const replace = event.merge !== undefined && event.merge === context.entryMerge;
      enqueue.assign({ view, selectedIds: [], entryMerge: event.merge ?? null });
      enqueue.emit({ type: 'list.view', view, replace });
    }),
    syncView: enqueueActions(({ event, self, enqueue }) => {
      assertEvent(event, 'view.sync');
      // Another entry of the history is shown: the next change makes its own.
      enqueue.assign({ view: event.view, selectedIds: [], entryMerge: null });
      if (self._parent) enqueue.sendTo(self._parent, { type: 'list.synced', view: event.view } satisfies PagedListParentEvent);
    }),
    /** A whole list's page past its end: the last page, and the URL corrected in place. */
    clampToItems: enqueueActions(({ context, enqueue }) => {
      const last = lastPage(context);
      if (context.view.page <= last) return;
      const view = { ...context.view, page: last };
      enqueue.assign({ view });
      enqueue.emit({ type: 'list.view', view, replace: true });
    }),
    clampToOutput: assign(({ context, event }) => ({
      totalCount: outputOf(event).totalCount,
      view: { ...context.view, page: lastPage(context, outputOf(event).totalCount) },
    })),
    showPage: assign(({ context, event }) => {
      const { items, totalCount } = outputOf(event);
      const ids = new Set(items.map((item) => idOf(context, item)));
      return { items, totalCount, selectedIds: context.selectedIds.filter((id) => ids.has(id)) };
    }),
    toggleRow: assign({
      selectedIds: ({ context, event }) => {
        assertEvent(event, 'selection.toggle');
        return pageIds(context).includes(event.id) ? toggleSelectedId(context.selectedIds, event.id) : context.selectedIds;
      },
    }),
    togglePage: assign({ selectedIds: ({ context }) => togglePageSelection(context.selectedIds, pageIds(context)) }),
    clearSelection: assign({ selectedIds: [] }),
    clearItems: assign({ items: [], totalCount: 0, selectedIds: [] }),
    reportLoaded: enqueueActions(({ event, self, enqueue }) => {
      if (self._parent) enqueue.sendTo(self._parent, { type: 'list.loaded', output: outputOf(event) } satisfies PagedListParentEvent);
    }),
    reportFailed: enqueueActions(({ event, self, enqueue }) => {
      const { error } = event as unknown as { error: unknown };
      if (self._parent) enqueue.sendTo(self._parent, { type: 'list.failed', error } satisfies PagedListParentEvent);
    }),
  },
}).createMachine({
  id: 'pagedList',
  context: ({ input }) => ({
    view: input.view,
    idKey: input.idKey,
    wholeList: input.wholeList ?? false,
    items: [],
    totalCount: 0,
    selectedIds: [],
    entryMerge: null,
  }),
  initial: 'loading',
  // Paged on the server: each change of the view loads its page (a load under way is aborted).
  on: {
    'page.go': { guard: and([not('pagesHere'), 'isOtherPage']), target: '.loading', actions: ['goToPage', 'pushView'] },
    'page.size': { guard: and([not('pagesHere'), 'isOtherSize']), target: '.loading', actions: ['setPageSize', 'pushView'] },
    'sort.toggle': { target: '.loading', actions: ['toggleSort', 'pushView'] },
    'list.filter': { guard: 'isOtherFilter', target: '.loading', actions: 'applyFilter' },
    'view.sync': { guard: 'isOtherView', target: '.loading', actions: 'syncView' },
    'list.reload': { target: '.loading' },
  },
  states: {
    loading: {
      tags: ['loading'],
      // Nothing can match the view: the empty state at once (the load never starts).
      always: { guard: 'matchesNothing', target: 'empty', actions: 'clearItems' },
      on: {
        // A whole list being loaded already asks for this view's items: the load goes on.
        'view.sync': { guard: and(['pagesHere', 'isOtherView', 'isSameQuery']), actions: 'syncView' },
      },
      invoke: {
        src: 'loadPage',
        input: ({ context }) => ({ view: context.view }),
        onDone: [
          {
            guard: and([not('pagesHere'), 'isBeyondLastPage']),
            target: 'loading',
            reenter: true,
            actions: ['clampToOutput', 'replaceView'],
          },
          { guard: 'hasNoItems', target: 'empty', actions: ['showPage', 'clampToItems', 'reportLoaded'] },
          { target: 'loaded', actions: ['showPage', 'clampToItems', 'reportLoaded'] },
        ],
        onError: { target: 'failed', actions: 'reportFailed' },
      },
    },
    loaded: {
      on: {
        // A whole list pages without loading.
        'page.go': { guard: and(['pagesHere', 'isOtherPage']), actions: ['goToPage', 'pushView'] },
        'page.size': { guard: and(['pagesHere', 'isOtherSize']), actions: ['setPageSize', 'pushView'] },
        'view.sync': { guard: and(['pagesHere', 'isOtherView', 'isSameQuery']), actions: ['syncView', 'clampToItems'] },
        'selection.toggle': { actions: 'toggleRow' },
        'selection.togglePage': { actions: 'togglePage' },
        'selection.clear': { actions: 'clearSelection' },
      },
    },
    empty: {},
    failed: {},
  },
});

export type PagedListRef = ActorRefFrom<typeof pagedListMachine>;
export type PagedListSnapshot = SnapshotFrom<typeof pagedListMachine>;

/**
 * The list over a screen's load (the view's page, or every item of a whole list); `matchesNothing`
 * names the views its filters leave empty, which are shown empty without a call.
 */
export const pagedListOf = (
  load: (view: ListView, signal: AbortSignal) => Promise<ListPage>,
  options: { readonly matchesNothing?: (view: ListView) => boolean } = {},
) =>
  pagedListMachine.provide({
    actors: { loadPage: fromPromise(({ input, signal }) => load(input.view, signal)) },
    guards: { matchesNothing: ({ context }) => options.matchesNothing?.(context.view) ?? false },
  });

export const selectListView = <View extends ListView = ListView>(snapshot: PagedListSnapshot): View => snapshot.context.view as View;
/** The items of the page shown. */
export const selectListItems = <Item>(snapshot: PagedListSnapshot): readonly Item[] => shownItems(snapshot.context) as readonly Item[];
export const selectSelectedIds = (snapshot: PagedListSnapshot): readonly string[] => snapshot.context.selectedIds;
export const selectIsLoading = (snapshot: PagedListSnapshot): boolean => snapshot.hasTag('loading');
export const selectHasFailed = (snapshot: PagedListSnapshot): boolean => snapshot.matches('failed');
export const selectIsEmpty = (snapshot: PagedListSnapshot): boolean => snapshot.matches('empty');
export const selectIsLoaded = (snapshot: PagedListSnapshot): boolean => snapshot.matches('loaded');
export const selectPageCount = (snapshot: PagedListSnapshot): number => lastPage(snapshot.context);
/** SPEC section 9: 'Page X of Y. Items A through B'. */
export const selectPageSummary = (snapshot: PagedListSnapshot): string =>
  pageSummary(snapshot.context.view.page, snapshot.context.view.limit, snapshot.context.totalCount);
/** How much of the shown page is selected, for the header checkbox. */
export const selectPageSelection = (snapshot: PagedListSnapshot): 'all' | 'some' | 'none' => {
  const ids = pageIds(snapshot.context);
  const chosen = ids.filter((id) => snapshot.context.selectedIds.includes(id)).length;
  return chosen === 0 ? 'none' : chosen === ids.length ? 'all' : 'some';
};
