// The messages screen of /messages (SPEC sections 2, 4, 5, 8 and 9): the shared list
// (paged-list.ts: newest first, paged on the server, the Archived filter, selection of one,
// several or all on the page, all in the URL) with the bulk actions on the selection and the
// single actions of each message. A row is plain data until the user acts on it: only then is a
// `message` actor (machines/message.ts) spawned for it, so a page of 100 messages starts no
// actor. After every action the page is loaded again from the server, the selection cleared, and
// the unread count the server gave reported to the app-wide count.
import { assertEvent, assign, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Message, MessageBulkPatch, MessageBulkResult, MessageList, MessageListQuery } from '../src/contract/messages';
import { isPageSize, pageOffset, type PageSize } from '../src/domain/asset-table';
import { DEFAULT_PAGE_SIZE } from '../src/domain/constants';
import { MESSAGES_TEXTS, type BulkMessageAction } from '../src/domain/messages';
import { messageMachine, type MessageActorRef, type MessageEvent, type NotifyParams } from './message';
import { pagedListMachine, type ListView, type PagedListParentEvent, type PagedListRef } from './paged-list';

/** What the screen shows; every field lives in the URL. */
export interface MessagesView extends ListView {
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

/** The id of a message's actor (spawned when the user first acts on it). */
export const messageActorId = (uuid: string): string => `message-${uuid}`;

/** The events a row's controls send its message (a reload's `message.sync` comes from the list). */
export type MessageUserEvent = Exclude<MessageEvent, { type: 'message.sync' }>;

export interface MessagesInput {
  /** The view the URL names when the screen opens. */
  readonly view: MessagesView;
}

export interface MessagesContext {
  readonly view: MessagesView;
  /** The actors of the messages acted on, while they are on the page shown. */
  readonly actors: readonly MessageActorRef[];
  /** Unread messages that are not archived, as the last load counted them; null before the first. */
  readonly unreadCount: number | null;
  /** The bulk action under way (or last asked for) and the messages it changes. */
  readonly bulk: { readonly action: BulkMessageAction; readonly uuids: readonly string[] } | null;
}

export type MessagesEvent =
  /** A row's control: the message's actor (spawned now if it has none) takes the event. */
  | { type: 'message.act'; message: Message; event: MessageUserEvent }
  /** A bulk action on the list's selection (the uuids selected on the page shown). */
  | { type: 'bulk.apply'; action: BulkMessageAction; uuids: readonly string[] }
  /** From a message's actor: one of its changes went through (or the page is out of date). */
  | { type: 'message.changed' }
  | PagedListParentEvent;

const listOf = (event: unknown): MessageList => {
  const { items, totalCount, unreadCount } = (event as { output: { items: Message[]; totalCount: number; unreadCount: number } }).output;
  return { messages: items, totalCount, unreadCount };
};

export const messagesMachine = setup({
  types: {
    input: {} as MessagesInput,
    context: {} as MessagesContext,
    events: {} as MessagesEvent,
  },
  actors: {
    // Provided by the screen: the list over GET v1 /messages (messages-actors.ts).
    list: pagedListMachine,
    // Provided by the screen: PATCH v1 /messages/bulk.
    updateMessages: fromPromise<MessageBulkResult, MessageBulkPatch>(async () => {
      throw new Error('updateMessages is provided by the screen');
    }),
    // Provided by the screen with its own calls and effects: one per message acted on.
    message: messageMachine,
  },
  guards: {
    hasNoSelection: ({ event }) => event.type === 'bulk.apply' && event.uuids.length === 0,
  },
  actions: {
    /** Provided by the screen: a toast. */
    notify: (_, _params: NotifyParams) => undefined,
    /** Provided by the screen: the app-wide unread count (the badge and the dashboard tile) takes the server's figure. */
    reportUnreadCount: (_, _params: { unreadCount: number }) => undefined,
    actOnMessage: enqueueActions(({ context, event, enqueue, self }) => {
      assertEvent(event, 'message.act');
      const id = messageActorId(event.message.uuid);
      if (!context.actors.some((ref) => ref.id === id)) {
        const { message } = event;
        enqueue.assign({ actors: ({ spawn }) => [...context.actors, spawn('message', { id, input: { message, list: self } })] });
      }
      enqueue.sendTo(id, event.event);
    }),
    /** The page as loaded: actors of messages still shown are told their state, the others stopped. */
    syncMessages: enqueueActions(({ context, event, enqueue }) => {
      const { messages, unreadCount } = listOf(event);
      const shown = new Map(messages.map((message) => [messageActorId(message.uuid), message]));
      for (const ref of context.actors) {
        const message = shown.get(ref.id);
        if (message) enqueue.sendTo(ref, { type: 'message.sync', message });
        else enqueue.stopChild(ref);
      }
      enqueue.assign({ actors: context.actors.filter((ref) => shown.has(ref.id)), unreadCount });
    }),
    keepBulk: assign({
      bulk: ({ event }) => {
        assertEvent(event, 'bulk.apply');
        return { action: event.action, uuids: event.uuids };
      },
    }),
    /** The page, its totals and the unread count again from the server, the selection cleared. */
    reloadList: enqueueActions(({ enqueue }) => {
      enqueue.sendTo('list', { type: 'selection.clear' });
      enqueue.sendTo('list', { type: 'list.reload' });
    }),
  },
}).createMachine({
  id: 'messages',
  context: ({ input }) => ({ view: input.view, actors: [], unreadCount: null, bulk: null }),
  invoke: { id: 'list', src: 'list', input: ({ context }) => ({ view: context.view, idKey: 'uuid' }) },
  on: {
    'list.loaded': {
      actions: ['syncMessages', { type: 'reportUnreadCount', params: ({ event }) => ({ unreadCount: listOf(event).unreadCount }) }],
    },
    'message.act': { actions: 'actOnMessage' },
    'message.changed': { actions: 'reloadList' },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'bulk.apply': [
          // SPEC section 5: nothing selected, nothing sent.
          {
            guard: 'hasNoSelection',
            actions: { type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.selectAtLeastOne } },
          },
          { target: 'updating', actions: 'keepBulk' },
        ],
      },
    },
    /** A bulk action on the selection; another one waits for it. */
    updating: {
      tags: ['updating'],
      invoke: {
        src: 'updateMessages',
        input: ({ context }) => bulkPatchOf(context.bulk?.action ?? 'markRead', context.bulk?.uuids ?? []),
        onDone: {
          target: 'idle',
          actions: [
            {
              type: 'notify',
              params: ({ context, event }) => ({
                variant: 'success',
                message: MESSAGES_TEXTS.bulkSucceeded(event.output.messagesUpdated, context.bulk?.action ?? 'markRead'),
              }),
            },
            'reloadList',
          ],
        },
        // The selection stays, so the action can be tried again.
        onError: { target: 'idle', actions: { type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.bulkFailed } } },
      },
    },
  },
});

export type MessagesSnapshot = SnapshotFrom<typeof messagesMachine>;

export const selectList = (snapshot: MessagesSnapshot): PagedListRef | undefined => snapshot.children.list;
/** The actors of the messages acted on, by message uuid. */
export const selectMessageActors = (snapshot: MessagesSnapshot): readonly MessageActorRef[] => snapshot.context.actors;
export const selectUnreadCount = (snapshot: MessagesSnapshot): number | null => snapshot.context.unreadCount;
export const selectIsUpdating = (snapshot: MessagesSnapshot): boolean => snapshot.hasTag('updating');
