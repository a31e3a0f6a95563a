// One message of the inbox (SPEC sections 3, 4 and 8), spawned by the messages list for each row
// of the page shown. Its states are explicit and independent, as parallel regions: read or
// unread, archived or not, the answer to an actionable message (confirm or reject, once), and
// whether its whole text is shown. Each change is one PATCH v1 /messages; on success the list is
// told (`message.changed`) and reloads the page, so totals and the unread count stay the
// server's. Opening what the message points to (an asset or a pool's assets) marks it read first.
// A reload hands each message its state as the server has it (`message.sync`); a region in the
// middle of its own call waits for that call instead.
import { fromPromise, raise, sendTo, setup, type ActorRefFrom, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import type { Message, MessagePatch } from '../src/contract/messages';
import { APP_PATHS } from '../src/domain/app-paths';
import { MESSAGES_TEXTS, messagePreview, type BulkMessageAction } from '../src/domain/messages';

export interface MessageInput {
  readonly message: Message;
  /** The list that spawned it, told of each change. */
  readonly list: AnyActorRef;
}

export interface MessageContext {
  /** The message as it was listed: uuid, text, time and target never change (its flags live in the states). */
  readonly message: Message;
  readonly list: AnyActorRef;
}

export type MessageEvent =
  | { type: 'message.markRead' }
  | { type: 'message.markUnread' }
  | { type: 'message.archive' }
  | { type: 'message.unarchive' }
  | { type: 'message.confirm' }
  | { type: 'message.reject' }
  /** Opens the asset or pool the message points to (marking it read first). */
  | { type: 'message.open' }
  | { type: 'message.expand' }
  | { type: 'message.collapse' }
  /** From the list after a reload: the message as the server has it now. */
  | { type: 'message.sync'; message: Message };

/** What the list is told. */
export type MessageParentEvent = { type: 'message.changed' };

export type NotifyParams = { readonly variant: 'success' | 'error'; readonly message: string };

/** Where a message leads (SPEC section 4): a loan's asset page, a pool's assets, a relationship's partner view; batches lead nowhere. */
export function messageTargetPath(message: Pick<Message, 'targetType' | 'targetId'>): string | null {
  switch (message.targetType) {
    case 'LOAN':
    case 'REQUEST_EXECUTE_CONTRACT':
      return APP_PATHS.asset(message.targetId);
    case 'POOL':
      return APP_PATHS.poolAssets(message.targetId);
    case 'RELATIONSHIP':
      return APP_PATHS.partnerProfile(message.targetId);
    default:
      return null;
  }
}

const synced = (event: MessageEvent): Message['messageData'] | null => (event.type === 'message.sync' ? event.message.messageData : null);
const outputOf = (event: unknown): Message => (event as { output: Message }).output;

/** The single-message toasts: the bulk texts of SPEC section 8 for one message. */
const updated = (action: BulkMessageAction): NotifyParams => ({ variant: 'success', message: MESSAGES_TEXTS.bulkSucceeded(1, action) });
const updateFailed: NotifyParams = { variant: 'error', message: MESSAGES_TEXTS.bulkFailed };

/** After a successful call: the toast, the message's other regions brought to what the server answered, the list told. */
const succeeded = (notice: NotifyParams | null) =>
  [...(notice ? [{ type: 'notify', params: notice } as const] : []), 'syncWithAnswer', 'reportChanged'] as const;

export const messageMachine = setup({
  types: {
    input: {} as MessageInput,
    context: {} as MessageContext,
    events: {} as MessageEvent,
  },
  actors: {
    // Provided by the app: PATCH v1 /messages with the message's uuid and one change, aborted with `signal`.
    updateMessage: fromPromise<Message, MessagePatch>(async () => {
      throw new Error('updateMessage is provided by the app');
    }),
  },
  guards: {
    startsRead: ({ context }) => context.message.messageData.read,
    startsArchived: ({ context }) => context.message.messageData.archived,
    startsNotActionable: ({ context }) => !context.message.messageData.isActionable,
    startsConfirmed: ({ context }) => context.message.messageData.response === true,
    startsRejected: ({ context }) => context.message.messageData.response === false,
    syncedRead: ({ event }) => synced(event)?.read === true,
    syncedUnread: ({ event }) => synced(event)?.read === false,
    syncedArchived: ({ event }) => synced(event)?.archived === true,
    syncedUnarchived: ({ event }) => synced(event)?.archived === false,
    syncedConfirmed: ({ event }) => synced(event)?.response === true,
    syncedRejected: ({ event }) => synced(event)?.response === false,
    hasTarget: ({ context }) => messageTargetPath(context.message) !== null,
    isShortened: ({ context }) => messagePreview(context.message.messageData.message).shortened,
    /** 404 (gone) or 409 (answered meanwhile): the page shown is out of date. */
    isStale: ({ event }) => 'error' in event && isHttpError(event.error) && (event.error.status === 404 || event.error.status === 409),
  },
  actions: {
    /** Provided by the screen: a toast. */
    notify: (_, _params: NotifyParams) => undefined,
    /** Provided by the screen: goes to the asset or pool the message points to. */
    openTarget: (_, _params: { path: string }) => undefined,
    /** Provided by the screen: the app-wide unread count asks the server again (the screen is being left). */
    refreshUnreadCount: () => undefined,
    /** The server's answer brings the other regions along (a confirm also marks the message read). */
    syncWithAnswer: raise(({ event }) => ({ type: 'message.sync' as const, message: outputOf(event) })),
    /** The list loads the page again (totals and the unread count stay the server's). */
    reportChanged: sendTo(({ context }) => context.list, { type: 'message.changed' } satisfies MessageParentEvent),
  },
}).createMachine({
  id: 'message',
  context: ({ input }) => ({ message: input.message, list: input.list }),
  type: 'parallel',
  states: {
    read: {
      initial: 'starting',
      states: {
        /** Transient: the state the listed message is in. */
        starting: {
          always: [{ guard: 'startsRead', target: 'read' }, { target: 'unread' }],
        },
        unread: {
          on: {
            'message.markRead': { target: 'markingRead' },
            'message.open': { guard: 'hasTarget', target: 'opening' },
            'message.sync': { guard: 'syncedRead', target: 'read' },
          },
        },
        markingRead: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, read: true }),
            onDone: { target: 'read', actions: succeeded(updated('markRead')) },
            onError: [
              { guard: 'isStale', target: 'unread', actions: [{ type: 'notify', params: updateFailed }, 'reportChanged'] },
              { target: 'unread', actions: { type: 'notify', params: updateFailed } },
            ],
          },
        },
        /** SPEC section 4: opening the asset or deal marks the message read, then goes there. */
        opening: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, read: true }),
            onDone: {
              target: 'read',
              actions: [
                'refreshUnreadCount',
                { type: 'openTarget', params: ({ context }) => ({ path: messageTargetPath(context.message) as string }) },
              ],
            },
            onError: { target: 'unread', actions: { type: 'notify', params: updateFailed } },
          },
        },
        read: {
          on: {
            'message.markUnread': { target: 'markingUnread' },
            'message.open': {
              guard: 'hasTarget',
              actions: { type: 'openTarget', params: ({ context }) => ({ path: messageTargetPath(context.message) as string }) },
            },
            'message.sync': { guard: 'syncedUnread', target: 'unread' },
          },
        },
        markingUnread: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, read: false }),
            onDone: { target: 'unread', actions: succeeded(updated('markUnread')) },
            onError: [
              { guard: 'isStale', target: 'read', actions: [{ type: 'notify', params: updateFailed }, 'reportChanged'] },
              { target: 'read', actions: { type: 'notify', params: updateFailed } },
            ],
          },
        },
      },
    },
    archive: {
      initial: 'starting',
      states: {
        starting: {
          always: [{ guard: 'startsArchived', target: 'archived' }, { target: 'unarchived' }],
        },
        unarchived: {
          on: {
            'message.archive': { target: 'archiving' },
            'message.sync': { guard: 'syncedArchived', target: 'archived' },
          },
        },
        archiving: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, archived: true }),
            onDone: { target: 'archived', actions: succeeded(updated('archive')) },
            onError: [
              { guard: 'isStale', target: 'unarchived', actions: [{ type: 'notify', params: updateFailed }, 'reportChanged'] },
              { target: 'unarchived', actions: { type: 'notify', params: updateFailed } },
            ],
          },
        },
        archived: {
          on: {
            'message.unarchive': { target: 'unarchiving' },
            'message.sync': { guard: 'syncedUnarchived', target: 'unarchived' },
          },
        },
        unarchiving: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, archived: false }),
            onDone: { target: 'unarchived', actions: succeeded(updated('unarchive')) },
            onError: [
              { guard: 'isStale', target: 'archived', actions: [{ type: 'notify', params: updateFailed }, 'reportChanged'] },
              { target: 'archived', actions: { type: 'notify', params: updateFailed } },
            ],
          },
        },
      },
    },
    /** SPEC sections 4 and 8: an actionable message is confirmed or rejected once (the answer also marks it read). */
    answer: {
      initial: 'starting',
      states: {
        starting: {
          always: [
            { guard: 'startsNotActionable', target: 'notActionable' },
            { guard: 'startsConfirmed', target: 'confirmed' },
            { guard: 'startsRejected', target: 'rejected' },
            { target: 'unanswered' },
          ],
        },
        notActionable: {},
        unanswered: {
          on: {
            'message.confirm': { target: 'confirming' },
            'message.reject': { target: 'rejecting' },
            // Answered meanwhile (by another user of the organization).
            'message.sync': [
              { guard: 'syncedConfirmed', target: 'confirmed' },
              { guard: 'syncedRejected', target: 'rejected' },
            ],
          },
        },
        confirming: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, response: true }),
            onDone: { target: 'confirmed', actions: succeeded({ variant: 'success', message: MESSAGES_TEXTS.confirmed }) },
            onError: [
              {
                guard: 'isStale',
                target: 'unanswered',
                actions: [{ type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.confirmFailed } }, 'reportChanged'],
              },
              { target: 'unanswered', actions: { type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.confirmFailed } } },
            ],
          },
        },
        rejecting: {
          tags: ['busy'],
          invoke: {
            src: 'updateMessage',
            input: ({ context }) => ({ uuid: context.message.uuid, response: false }),
            onDone: { target: 'rejected', actions: succeeded({ variant: 'success', message: MESSAGES_TEXTS.rejected }) },
            onError: [
              {
                guard: 'isStale',
                target: 'unanswered',
                actions: [{ type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.rejectFailed } }, 'reportChanged'],
              },
              { target: 'unanswered', actions: { type: 'notify', params: { variant: 'error', message: MESSAGES_TEXTS.rejectFailed } } },
            ],
          },
        },
        confirmed: {},
        rejected: {},
      },
    },
    /** SPEC sections 2 and 9: text over 150 characters is shortened, with a way to read it whole. */
    text: {
      initial: 'collapsed',
      states: {
        collapsed: {
          on: { 'message.expand': { guard: 'isShortened', target: 'expanded' } },
        },
        expanded: {
          on: { 'message.collapse': { target: 'collapsed' } },
        },
      },
    },
  },
});

export type MessageActorRef = ActorRefFrom<typeof messageMachine>;
export type MessageSnapshot = SnapshotFrom<typeof messageMachine>;

export const selectMessage = (snapshot: MessageSnapshot): Message => snapshot.context.message;
/** Read as shown: read, or read and being marked unread. */
export const selectIsRead = (snapshot: MessageSnapshot): boolean =>
  snapshot.matches({ read: 'read' }) || snapshot.matches({ read: 'markingUnread' });
export const selectIsArchived = (snapshot: MessageSnapshot): boolean =>
  snapshot.matches({ archive: 'archived' }) || snapshot.matches({ archive: 'unarchiving' });
/** The answer given: true confirmed, false rejected, null none (yet, or not actionable). */
export const selectAnswer = (snapshot: MessageSnapshot): boolean | null =>
  snapshot.matches({ answer: 'confirmed' }) ? true : snapshot.matches({ answer: 'rejected' }) ? false : null;
/** Confirm and Reject are offered (an actionable message not answered yet, or being answered). */
export const selectIsAnswerable = (snapshot: MessageSnapshot): boolean =>
  snapshot.matches({ answer: 'unanswered' }) || snapshot.matches({ answer: 'confirming' }) || snapshot.matches({ answer: 'rejecting' });
export const selectIsExpanded = (snapshot: MessageSnapshot): boolean => snapshot.matches({ text: 'expanded' });
/** Which call of the message is under way (its button says so; a region ignores its own events meanwhile). */
export const selectIsMarking = (snapshot: MessageSnapshot): boolean =>
  snapshot.matches({ read: 'markingRead' }) || snapshot.matches({ read: 'markingUnread' });
export const selectIsChangingArchived = (snapshot: MessageSnapshot): boolean =>
  snapshot.matches({ archive: 'archiving' }) || snapshot.matches({ archive: 'unarchiving' });
export const selectIsConfirming = (snapshot: MessageSnapshot): boolean => snapshot.matches({ answer: 'confirming' });
export const selectIsRejecting = (snapshot: MessageSnapshot): boolean => snapshot.matches({ answer: 'rejecting' });
export const selectIsOpening = (snapshot: MessageSnapshot): boolean => snapshot.matches({ read: 'opening' });
export const selectTargetPath = (snapshot: MessageSnapshot): string | null => messageTargetPath(snapshot.context.message);

/** What a message's row shows: from its actor once the user acts on it, else from the listed message. */
export interface MessageRowState {
  readonly read: boolean;
  readonly archived: boolean;
  readonly answer: boolean | null;
  readonly answerable: boolean;
  readonly expanded: boolean;
  readonly opening: boolean;
  readonly marking: boolean;
  readonly archiving: boolean;
  readonly confirming: boolean;
  readonly rejecting: boolean;
}

/** A listed message no one acts on: its flags as the server gave them, nothing under way. */
export function messageRowStateOf({ messageData }: Message): MessageRowState {
  const answer = messageData.isActionable && typeof messageData.response === 'boolean' ? messageData.response : null;
  return {
    read: messageData.read,
    archived: messageData.archived,
    answer,
    answerable: messageData.isActionable && answer === null,
    expanded: false,
    opening: false,
    marking: false,
    archiving: false,
    confirming: false,
    rejecting: false,
  };
}

export const selectRowState = (snapshot: MessageSnapshot): MessageRowState => ({
  read: selectIsRead(snapshot),
  archived: selectIsArchived(snapshot),
  answer: selectAnswer(snapshot),
  answerable: selectIsAnswerable(snapshot),
  expanded: selectIsExpanded(snapshot),
  opening: selectIsOpening(snapshot),
  marking: selectIsMarking(snapshot),
  archiving: selectIsChangingArchived(snapshot),
  confirming: selectIsConfirming(snapshot),
  rejecting: selectIsRejecting(snapshot),
});
