// The messages screen of /messages (SPEC sections 2, 4, 5, 8 and 9): one page of the
// organization's messages at a time, newest first, with the Archived filter (off: archived
// messages hidden) and paging in the URL; selection of one, several or all on the page; bulk
// actions on the selection; and one `message` actor per row (machines/message.ts) for the
// single actions. After every action the page is loaded again from the server, the selection
// cleared, and the unread count the server gave reported to the app-wide count.
import { assertEvent, assign, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Message, MessageBulkPatch, MessageBulkResult, MessageList, MessageListQuery } from '../src/contract/messages';
import {
  clampPage,
  isPageSize,
  pageCount,
  pageOffset,
  pageSummary,
  toggleSelectedId,
  togglePageSelection,
  type PageSize,
} from '../src/domain/asset-table';
import { DEFAULT_PAGE_SIZE } from '../src/domain/constants';
import { MESSAGES_TEXTS, type BulkMessageAction } from '../src/domain/messages';
import { messageMachine, type MessageActorRef, type NotifyParams } from './message';

/** What the screen shows; every field lives in the URL. */
export interface MessagesView {
  readonly page: number;
  readonly limit: PageSize;
  /** The Archived filter: archived messages are listed too. */
  readonly archived: boolean;
}

export const DEFAULT_MESSAGES_VIEW: MessagesView = { page: 1, limit: DEFAULT_PAGE_SIZE as PageSize, archived: false };

/** URL parameter names: `page` and `limit` as SPEC names them, `archived=true` for the filter. */
export const MESSAGES_VIEW_PARAMS = { page: 'page', limit: 'limit', archived: 'archived' } as const;

/** The view a URL names; anything malformed falls back to its default. */
export function parseMessagesView(search: string | URLSearchParams): MessagesView {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const page = Number(params.get(MESSAGES_VIEW_PARAMS.page));
  const limit = Number(params.get(MESSAGES_VIEW_PARAMS.limit));
  return {
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
    limit: isPageSize(limit) ? limit : DEFAULT_MESSAGES_VIEW.limit,
    archived: params.get(MESSAGES_VIEW_PARAMS.archived) === 'true',
  };
}

/** The URL search of a view: page and limit always, the filter when on. */
export function serializeMessagesView(view: MessagesView): string {
  const params = new URLSearchParams();
  params.set(MESSAGES_VIEW_PARAMS.page, String(view.page));
  params.set(MESSAGES_VIEW_PARAMS.limit, String(view.limit));
  if (view.archived) params.set(MESSAGES_VIEW_PARAMS.archived, 'true');
  return `?${params.toString()}`;
}

export const sameMessagesView = (a: MessagesView, b: MessagesView): boolean =>
  a.page === b.page && a.limit === b.limit && a.archived === b.archived;

/** GET v1 /messages query of a view. */
export const messageListQueryOf = (view: MessagesView): MessageListQuery => ({
  limit: view.limit,
  offset: pageOffset(view.page, view.limit),
  archived: view.archived ? 'true' : 'false',
});

/** PATCH v1 /messages/bulk body of an action on the selection. */
export function bulkPatchOf(action: BulkMessageAction, uuids: readonly string[]): MessageBulkPatch {
  const change = { archive: { archived: true }, unarchive: { archived: false }, markRead: { read: true }, markUnread: { read: false } }[
    action
  ];
  return { uuids: [...uuids], ...change };
}

/** The id of a row's message actor. */
export const messageActorId = (uuid: string): string => `message-${uuid}`;

export interface MessagesInput {
  /** The view the URL names when the screen opens. */
  readonly view: MessagesView;
}

export interface MessagesContext {
  readonly view: MessagesView;
  /** One actor per message of the page shown, in page order. */
  readonly rows: readonly MessageActorRef[];
  /** The uuids of the page shown, in page order. */
  readonly pageIds: readonly string[];
  readonly totalCount: number;
  /** Unread messages that are not archived, as the last load counted them; null before the first. */
  readonly unreadCount: number | null;
  /** Selected uuids, all on the page shown. */
  readonly selectedIds: readonly string[];
  /** The bulk action under way (or last asked for). */
  readonly bulkAction: BulkMessageAction | null;
}

export type MessagesEvent =
  | { type: 'page.go'; page: number }
  | { type: 'page.size'; limit: PageSize }
  | { type: 'filters.archived'; archived: boolean }
  /** The URL changed outside the screen (back button, a link): show the view it names. */
  | { type: 'view.sync'; view: MessagesView }
  | { type: 'list.retry' }
  | { type: 'list.refresh' }
  | { type: 'selection.toggle'; uuid: string }
  | { type: 'selection.togglePage' }
  | { type: 'selection.clear' }
  | { type: 'bulk.apply'; action: BulkMessageAction }
  /** From a row's message actor: one of its changes went through (or the page is out of date). */
  | { type: 'message.changed' };

type Context = MessagesContext;

const lastPage = (context: Context) => pageCount(context.totalCount, context.view.limit);
const listOf = (event: unknown): MessageList => (event as { output: MessageList }).output;
const bulkResultOf = (event: unknown): MessageBulkResult => (event as { output: MessageBulkResult }).output;

/** The new view becomes a history entry (the back button returns to the one before). */
const pushView = { type: 'showView', params: ({ context }: { context: Context }) => ({ view: context.view, replace: false }) } as const;
/** A corrected view (clamped page) replaces the entry that named it. */
const replaceView = { type: 'showView', params: ({ context }: { context: Context }) => ({ view: context.view, replace: true }) } as const;

export const messagesMachine = setup({
  types: {
    input: {} as MessagesInput,
    context: {} as MessagesContext,
    events: {} as MessagesEvent,
  },
  actors: {
    // Provided by the screen: GET v1 /messages with the view's query, aborted with `signal`.
    loadMessages: fromPromise<MessageList, { view: MessagesView }>(async () => {
      throw new Error('loadMessages is provided by the screen');
    }),
    // Provided by the screen: PATCH v1 /messages/bulk.
    updateMessages: fromPromise<MessageBulkResult, MessageBulkPatch>(async () => {
      throw new Error('updateMessages is provided by the screen');
    }),
    // Provided by the screen with its own calls and effects: one per row.
    message: messageMachine,
  },
  guards: {
    isOtherPage: ({ context, event }) => event.type === 'page.go' && clampPage(event.page, lastPage(context)) !== context.view.page,
    isOtherSize: ({ context, event }) => event.type === 'page.size' && event.limit !== context.view.limit,
    isOtherFilter: ({ context, event }) => event.type === 'filters.archived' && event.archived !== context.view.archived,
    isOtherView: ({ context, event }) => event.type === 'view.sync' && !sameMessagesView(event.view, context.view),
    isBeyondLastPage: ({ context, event }) => context.view.page > pageCount(listOf(event).totalCount, context.view.limit),
    hasNoSelection: ({ context }) => context.selectedIds.length === 0,
  },
  actions: {
    /** Provided by the screen: puts the view in the URL (a new history entry, or in place). */
    showView: (_, _params: { view: MessagesView; replace: boolean }) => undefined,
    /** Provided by the screen: a toast. */
    notify: (_, _params: NotifyParams) => undefined,
    /** Provided by the screen: the app-wide unread count (the badge and the dashboard tile) takes the server's figure. */
    reportUnreadCount: (_, _params: { unreadCount: number }) => undefined,
    goToPage: assign(({ context, event }) => {
      assertEvent(event, 'page.go');
      return { view: { ...context.view, page: clampPage(event.page, lastPage(context)) }, selectedIds: [] };
    }),
    setPageSize: assign(({ context, event }) => {
      assertEvent(event, 'page.size');
      return { view: { ...context.view, limit: event.limit, page: 1 }, selectedIds: [] };
    }),
    setArchivedFilter: assign(({ context, event }) => {
      assertEvent(event, 'filters.archived');
      return { view: { ...context.view, archived: event.archived, page: 1 }, selectedIds: [] };
    }),
    syncView: assign(({ event }) => {
      assertEvent(event, 'view.sync');
      return { view: event.view, selectedIds: [] };
    }),
    clampToLastPage: assign(({ context, event }) => {
      const { totalCount } = listOf(event);
      return { totalCount, view: { ...context.view, page: pageCount(totalCount, context.view.limit) } };
    }),
    /** The page as loaded: actors of messages still shown are told their state, new ones spawned, the others stopped. */
    showPage: enqueueActions(({ context, event, enqueue }) => {
      const { messages, totalCount, unreadCount } = listOf(event);
      const shown = new Map(context.rows.map((ref) => [ref.id, ref]));
      const ids = new Set(messages.map((message) => messageActorId(message.uuid)));
      for (const ref of context.rows) if (!ids.has(ref.id)) enqueue.stopChild(ref);
      for (const message of messages) {
        const ref = shown.get(messageActorId(message.uuid));
        if (ref) enqueue.sendTo(ref, { type: 'message.sync', message });
      }
      const pageIds = messages.map((message) => message.uuid);
      enqueue.assign({
        rows: ({ spawn, self }) =>
          messages.map(
            (message: Message) =>
              shown.get(messageActorId(message.uuid)) ??
              spawn('message', { id: messageActorId(message.uuid), input: { message, list: self } }),
          ),
        pageIds,
        totalCount,
        unreadCount,
        selectedIds: context.selectedIds.filter((uuid) => pageIds.includes(uuid)),
      });
    }),
    toggleRow: assign({
      selectedIds: ({ context, event }) => {
        assertEvent(event, 'selection.toggle');
        return context.pageIds.includes(event.uuid) ? toggleSelectedId(context.selectedIds, event.uuid) : context.selectedIds;
      },
    }),
    togglePage: assign({ selectedIds: ({ context }) => togglePageSelection(context.selectedIds, context.pageIds) }),
    clearSelection: assign({ selectedIds: [] }),
    keepBulkAction: assign({
      bulkAction: ({ event }) => {
        assertEvent(event, 'bulk.apply');
        return event.action;
      },
    }),
  },
}).createMachine({
  id: 'messages',
  context: ({ input }) => ({
    view: input.view,
    rows: [],
    pageIds: [],
    totalCount: 0,
    unreadCount: null,
    selectedIds: [],
    bulkAction: null,
  }),
  // The URL names the view in full (page and limit included) from the first render.
  entry: { type: 'showView', params: ({ context }) => ({ view: context.view, replace: true }) },
  initial: 'browsing',
  states: {
    browsing: {
      initial: 'loading',
      on: {
        'page.go': { guard: 'isOtherPage', target: '.loading', actions: ['goToPage', pushView] },
        'page.size': { guard: 'isOtherSize', target: '.loading', actions: ['setPageSize', pushView] },
        'filters.archived': { guard: 'isOtherFilter', target: '.loading', actions: ['setArchivedFilter', pushView] },
        'view.sync': { guard: 'isOtherView', target: '.loading', actions: 'syncView' },
        'list.refresh': { target: '.loading' },
        // A row's change went through: the page, its totals and the unread count again from the server.
        'message.changed': { target: '.loading', actions: 'clearSelection' },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            src: 'loadMessages',
            input: ({ context }) => ({ view: context.view }),
            onDone: [
              // The list shrank (the last message of the last page archived, say): show its last page.
              { guard: 'isBeyondLastPage', target: 'loading', reenter: true, actions: ['clampToLastPage', replaceView] },
              {
                target: 'ready',
                actions: ['showPage', { type: 'reportUnreadCount', params: ({ event }) => ({ unreadCount: event.output.unreadCount }) }],
              },
            ],
            onError: { target: 'failed' },
          },
        },
        ready: {
          on: {
            'selection.toggle': { actions: 'toggleRow' },
            'selection.togglePage': { actions: 'togglePage' },
            'selection.clear': { actions: 'clearSelection' },
            'bulk.apply': [
              // SPEC section 5: nothing selected, nothing sent.
              {
                guard: 'hasNoSelection',
                actions: { type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.selectAtLeastOne } },
              },
              { target: '#messages.updating', actions: 'keepBulkAction' },
            ],
          },
        },
        failed: {
          on: { 'list.retry': { target: 'loading' } },
        },
      },
    },
    /** A bulk action on the selection; the page waits for it (paging and row changes come after). */
    updating: {
      tags: ['updating'],
      invoke: {
        src: 'updateMessages',
        input: ({ context }) => bulkPatchOf(context.bulkAction ?? 'markRead', context.selectedIds),
        onDone: {
          target: 'browsing.loading',
          actions: [
            {
              type: 'notify',
              params: ({ context, event }) => ({
                variant: 'success',
                message: MESSAGES_TEXTS.bulkSucceeded(bulkResultOf(event).messagesUpdated, context.bulkAction ?? 'markRead'),
              }),
            },
            'clearSelection',
          ],
        },
        // The selection stays, so the action can be tried again.
        onError: {
          target: 'browsing.ready',
          actions: { type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.bulkFailed } },
        },
      },
    },
  },
});

export type MessagesSnapshot = SnapshotFrom<typeof messagesMachine>;

export const selectView = (snapshot: MessagesSnapshot): MessagesView => snapshot.context.view;
export const selectRows = (snapshot: MessagesSnapshot): readonly MessageActorRef[] => snapshot.context.rows;
export const selectSelectedIds = (snapshot: MessagesSnapshot): readonly string[] => snapshot.context.selectedIds;
export const selectUnreadCount = (snapshot: MessagesSnapshot): number | null => snapshot.context.unreadCount;
export const selectIsLoading = (snapshot: MessagesSnapshot): boolean => snapshot.hasTag('loading');
export const selectIsUpdating = (snapshot: MessagesSnapshot): boolean => snapshot.hasTag('updating');
export const selectHasFailed = (snapshot: MessagesSnapshot): boolean => snapshot.matches({ browsing: 'failed' });
/** Loaded, and nothing in this view: the empty state. */
export const selectIsEmpty = (snapshot: MessagesSnapshot): boolean =>
  snapshot.matches({ browsing: 'ready' }) && snapshot.context.pageIds.length === 0;
/** Bulk actions are taken now (the page is shown and no other bulk action runs). */
export const selectCanApplyBulk = (snapshot: MessagesSnapshot): boolean => snapshot.matches({ browsing: 'ready' });
export const selectPageCount = (snapshot: MessagesSnapshot): number => lastPage(snapshot.context);
export const selectPageSummary = (snapshot: MessagesSnapshot): string =>
  pageSummary(snapshot.context.view.page, snapshot.context.view.limit, snapshot.context.totalCount);
/** How much of the shown page is selected, for the header checkbox. */
export const selectPageSelection = (snapshot: MessagesSnapshot): 'all' | 'some' | 'none' => {
  const { pageIds, selectedIds } = snapshot.context;
  const chosen = pageIds.filter((uuid) => selectedIds.includes(uuid)).length;
  return chosen === 0 ? 'none' : chosen === pageIds.length ? 'all' : 'some';
};
