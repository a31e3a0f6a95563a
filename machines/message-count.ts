// The unread message count (SPEC sections 2 and 9), app-wide: the badge on Messages in the
// navigation and the count on the dashboard's Messages tile. It follows the session's
// organization itself: it loads the count once the organization is known and again on every
// switch (the old organization's count is dropped at once); the messages screen reports the count after each list load and message action
// (`messageCount.changed`) or asks for it again (`messageCount.refresh`). Per SPEC section 9
// nothing is fetched again on focus, mount or reconnect, and a failed load is not retried: it
// shows no badge, and the tile offers to load it again.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unreadBadge } from '../src/domain/messages';
import { followOrganization } from './session';

export interface MessageCountContext {
  /** Unread, not archived messages of the current organization; null while unknown. */
  readonly unreadCount: number | null;
}

export type MessageCountEvent =
  /** The organization is known (sign-in, switch, reload): load its count. */
  | { type: 'messageCount.load' }
  /** Signed out or no organization: forget the count. */
  | { type: 'messageCount.reset' }
  /** From the messages screen, after every message action and list load: the count as the server gave it. */
  | { type: 'messageCount.changed'; unreadCount: number }
  /** From the messages screen (or the tile's retry): load the count again. */
  | { type: 'messageCount.refresh' };

export const messageCountMachine = setup({
  types: { context: {} as MessageCountContext, events: {} as MessageCountEvent },
  actors: {
    followOrganization,
    // Provided by the app: GET v1 /messages/unread-count for the current organization; aborted with `signal`.
    fetchUnreadCount: fromPromise<number>(async () => {
      throw new Error('fetchUnreadCount is provided by the app');
    }),
  },
}).createMachine({
  id: 'messageCount',
  context: { unreadCount: null },
  // The session's organization, for as long as this actor lives: load its count, or forget it.
  invoke: {
    src: 'followOrganization',
    input: { whenKnown: { type: 'messageCount.load' }, whenUnknown: { type: 'messageCount.reset' } },
  },
  initial: 'idle',
  states: {
    /** No organization (before sign-in, after sign-out): no count. */
    idle: {
      on: { 'messageCount.load': { target: 'active' } },
    },
    /** An organization is known: its count is shown. */
    active: {
      initial: 'loading',
      on: {
        // Another organization: its count only, never the previous one's while it loads.
        'messageCount.load': { target: '.loading', reenter: true, actions: assign({ unreadCount: null }) },
        'messageCount.reset': { target: 'idle', actions: assign({ unreadCount: null }) },
        // The messages screen's answer is the newest: it also ends a load under way.
        'messageCount.changed': { target: '.loaded', actions: assign({ unreadCount: ({ event }) => event.unreadCount }) },
      },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            src: 'fetchUnreadCount',
            onDone: { target: 'loaded', actions: assign({ unreadCount: ({ event }) => event.output }) },
            // No badge for a count that could not be loaded; not retried (SPEC section 9).
            onError: { target: 'failed', actions: assign({ unreadCount: null }) },
          },
          // Asked again while loading: the answer under way may predate a message action.
          on: { 'messageCount.refresh': { target: 'loading', reenter: true } },
        },
        loaded: {
          // The count stays shown while it loads again.
          on: { 'messageCount.refresh': { target: 'loading' } },
        },
        failed: {
          on: { 'messageCount.refresh': { target: 'loading' } },
        },
      },
    },
  },
});

export type MessageCountSnapshot = SnapshotFrom<typeof messageCountMachine>;

/** The count as known now (null: none to show). */
export const selectUnreadCount = (snapshot: MessageCountSnapshot): number | null => snapshot.context.unreadCount;
/** The navigation badge: '9+' above 9, null for none or unknown. */
export const selectUnreadBadge = (snapshot: MessageCountSnapshot): string | null => {
  const count = snapshot.context.unreadCount;
  return count === null ? null : unreadBadge(count);
};
export const selectIsLoading = (snapshot: MessageCountSnapshot): boolean => snapshot.hasTag('busy');
export const selectHasFailed = (snapshot: MessageCountSnapshot): boolean => snapshot.matches({ active: 'failed' });
