// Removing a member from an organization (/administration/organizations/:organizationUuid/users/
// :userUuid/delete; SPEC sections 2 and 7): the member is named and what removal means
// is said before anything is sent; a refusal (the last administrator, oneself: 409) is shown
// where the confirm button is, and the confirm can be tried again.
import { assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError, isNotFound } from '../src/contract/http-error';
import type { OrganizationUser } from '../src/contract/organization-users';
import { USER_REMOVAL_TEXTS as T } from '../src/domain/organization-users';
import { USER_TEXTS } from '../src/domain/administration-texts';
import { toastShow } from './toasts';

export interface UserRemovalInput {
  readonly participantId: string;
  readonly userId: string;
  /** The member as the list showed it (else it is read). */
  readonly user?: OrganizationUser | null;
}

export interface UserRemovalContext {
  readonly participantId: string;
  readonly userId: string;
  readonly user: OrganizationUser | null;
  /** Why the last load or removal failed: the server's reason for a 4xx, else null. */
  readonly failure: string | null;
}

export type UserRemovalEvent = { type: 'removal.confirm' } | { type: 'user.reload' };

const reasonOf = (error: unknown): string | null =>
  isHttpError(error) && error.status >= 400 && error.status < 500 ? error.serverMessage || null : null;

export const userRemovalMachine = setup({
  types: {
    input: {} as UserRemovalInput,
    context: {} as UserRemovalContext,
    events: {} as UserRemovalEvent,
  },
  actors: {
    // Provided by the screen: GET v2 /participants/{participantId}/users/{userId}.
    loadUser: fromPromise<OrganizationUser, { participantId: string; userId: string }>(async () => {
      throw new Error('loadUser is provided by the screen');
    }),
    // Provided by the screen: DELETE v2 /participants/{participantId}/users/{userId}.
    removeUser: fromPromise<void, { participantId: string; userId: string }>(async () => {
      throw new Error('removeUser is provided by the screen');
    }),
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
  },
  actions: {
    keepUser: assign(({ event }) => ({ user: (event as unknown as { output: OrganizationUser }).output, failure: null })),
    keepFailure: assign(({ event }) => ({ failure: reasonOf((event as unknown as { error: unknown }).error) })),
    /** A member not found says so; any other failure says the member could not be loaded. */
    keepLoadFailure: assign(({ event }) => ({
      failure: isNotFound((event as unknown as { error: unknown }).error) ? USER_TEXTS.notMember : null,
    })),
    clearFailure: assign({ failure: null }),
    // The app's toasts actor (machines/app-root.ts).
    notifyRemoved: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.removed)),
    /** Provided by the screen: the focus to the failure said. */
    focusFailure: () => undefined,
    /** Provided by the screen: back to the organization's users. */
    goToList: () => undefined,
  },
}).createMachine({
  id: 'userRemoval',
  context: ({ input }) => ({ participantId: input.participantId, userId: input.userId, user: input.user ?? null, failure: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasUser', target: 'confirming' }, { target: 'loading' }],
    },
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadUser',
        input: ({ context }) => ({ participantId: context.participantId, userId: context.userId }),
        onDone: { target: 'confirming', actions: 'keepUser' },
        onError: { target: 'loadFailed', actions: 'keepLoadFailure' },
      },
    },
    loadFailed: {
      on: { 'user.reload': { target: 'loading', actions: 'clearFailure' } },
    },
    confirming: {
      on: { 'removal.confirm': 'removing' },
    },
    removing: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        src: 'removeUser',
        input: ({ context }) => ({ participantId: context.participantId, userId: context.userId }),
        onDone: { target: 'removed' },
        onError: { target: 'failed', actions: 'keepFailure' },
      },
    },
    /** The question again, with the failure said above the confirm button. */
    failed: {
      entry: 'focusFailure',
      on: { 'removal.confirm': 'removing' },
    },
    removed: {
      type: 'final',
      entry: ['notifyRemoved', 'goToList'],
    },
  },
});

export type UserRemovalSnapshot = SnapshotFrom<typeof userRemovalMachine>;

export const selectRemovalUser = (snapshot: UserRemovalSnapshot): OrganizationUser | null => snapshot.context.user;
export const selectRemovalFailure = (snapshot: UserRemovalSnapshot): string | null => snapshot.context.failure;
export const selectIsRemovalLoading = (snapshot: UserRemovalSnapshot): boolean =>
  snapshot.matches('starting') || snapshot.hasTag('loading');
export const selectRemovalLoadFailed = (snapshot: UserRemovalSnapshot): boolean => snapshot.matches('loadFailed');
export const selectIsRemoving = (snapshot: UserRemovalSnapshot): boolean => snapshot.hasTag('busy');
export const selectRemovalFailed = (snapshot: UserRemovalSnapshot): boolean => snapshot.matches('failed');
