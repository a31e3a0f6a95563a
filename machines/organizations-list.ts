// The organization list of /administration/organizations (SPEC sections 2 and 9), a configuration
// of the shared list (paged-list.ts), paged, sorted and searched on the server (GET v2
// /participants): the search settles 500 ms after the last keystroke (as the assets' does, one
// history entry per search) and the status filter shows active, inactive or all organizations.
// Page, limit, sort, search and status live in the URL.
import { assertEvent, assign, enqueueActions, sendTo, setup, type SnapshotFrom } from 'xstate';
import {
  ORGANIZATION_SORTS,
  ORGANIZATION_STATUSES,
  type OrganizationSort,
  type OrganizationStatus,
  type OrganizationsQuery,
} from '../src/contract/organizations';
import { pageOffset, parseAssetListView, VIEW_PARAMS } from '../src/domain/asset-table';
import { DEFAULT_PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '../src/domain/constants';
import { listFilterEvent, pagedListMachine, type ListView, type PagedListParentEvent, type PagedListRef } from './paged-list';

/** The URL parameter of the status filter (`?status=inactive`); absent means active. */
export const STATUS_PARAM = 'status';
export const DEFAULT_ORGANIZATION_STATUS: OrganizationStatus = 'active';

export interface OrganizationsView extends ListView {
  readonly query: string;
  readonly status: OrganizationStatus;
}

const isStatus = (value: string | null): value is OrganizationStatus =>
  (ORGANIZATION_STATUSES as readonly (string | null)[]).includes(value);
const isSort = (value: string | null): value is OrganizationSort => (ORGANIZATION_SORTS as readonly (string | null)[]).includes(value);

/** The view a URL names; anything malformed falls back to its default. */
export function parseOrganizationsView(search: string): OrganizationsView {
  const params = new URLSearchParams(search);
  const { page, limit } = parseAssetListView(search);
  const status = params.get(STATUS_PARAM);
  const sortBy = params.get(VIEW_PARAMS.sortBy);
  return {
    page,
    limit,
    query: (params.get(VIEW_PARAMS.query) ?? '').trim().slice(0, 200),
    status: isStatus(status) ? status : DEFAULT_ORGANIZATION_STATUS,
    sort: isSort(sortBy) ? { column: sortBy, direction: params.get(VIEW_PARAMS.sortDirection) === 'desc' ? 'desc' : 'asc' } : null,
  };
}

/** Only what differs from the default view. */
export function serializeOrganizationsView(view: OrganizationsView): string {
  const search = new URLSearchParams();
  if (view.page !== 1 || view.limit !== DEFAULT_PAGE_SIZE) {
    search.set(VIEW_PARAMS.page, String(view.page));
    search.set(VIEW_PARAMS.limit, String(view.limit));
  }
  if (view.query) search.set(VIEW_PARAMS.query, view.query);
  if (view.status !== DEFAULT_ORGANIZATION_STATUS) search.set(STATUS_PARAM, view.status);
  if (view.sort) {
    search.set(VIEW_PARAMS.sortBy, view.sort.column);
    search.set(VIEW_PARAMS.sortDirection, view.sort.direction);
  }
  return search.size ? `?${search.toString()}` : '';
}

/** GET v2 /participants' query of a view (no sort: by name). */
export function organizationsQueryOf(view: OrganizationsView): OrganizationsQuery {
  const sort = view.sort && isSort(view.sort.column) ? view.sort : null;
  return {
    limit: view.limit,
    offset: pageOffset(view.page, view.limit),
    status: view.status,
    sort: sort?.column ?? 'name',
    direction: sort?.direction ?? 'asc',
    ...(view.query ? { query: view.query } : {}),
  } as OrganizationsQuery;
}

export interface OrganizationsListInput {
  readonly view: OrganizationsView;
}

export interface OrganizationsListContext {
  readonly view: OrganizationsView;
  /** What the search box holds; the list's query after the debounce. */
  readonly searchText: string;
  readonly status: OrganizationStatus;
}

export type OrganizationsListEvent =
  { type: 'filters.search'; text: string } | { type: 'filters.status'; status: OrganizationStatus } | PagedListParentEvent;

const filter = (filters: Partial<OrganizationsView>, merge?: string) => listFilterEvent<OrganizationsView>(filters, merge);

export const organizationsListMachine = setup({
  types: { input: {} as OrganizationsListInput, context: {} as OrganizationsListContext, events: {} as OrganizationsListEvent },
  delays: { debounce: SEARCH_DEBOUNCE_MS },
  actors: {
    // Provided by the screen: the list over GET v2 /participants (organizations-actors.ts).
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
    applyStatus: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'filters.status');
      enqueue.assign({ status: event.status });
      enqueue.sendTo('list', filter({ status: event.status }));
    }),
    showSynced: assign(({ event }) => {
      assertEvent(event, 'list.synced');
      const view = event.view as OrganizationsView;
      return { searchText: view.query, status: view.status };
    }),
  },
}).createMachine({
  id: 'organizationsList',
  context: ({ input }) => ({ view: input.view, searchText: input.view.query, status: input.view.status }),
  invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'id' }) },
  on: {
    'filters.status': { actions: 'applyStatus' },
    // The URL named another view (Back, a link): the box and the filter show it, a pending search is dropped.
    'list.synced': { target: '.idle', actions: 'showSynced' },
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

type OrganizationsListSnapshot = SnapshotFrom<typeof organizationsListMachine>;

export const selectOrganizationsList = (snapshot: OrganizationsListSnapshot): PagedListRef | undefined => snapshot.children.list;
export const selectOrganizationSearchText = (snapshot: OrganizationsListSnapshot): string => snapshot.context.searchText;
export const selectOrganizationStatus = (snapshot: OrganizationsListSnapshot): OrganizationStatus => snapshot.context.status;
