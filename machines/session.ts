// The signed-in session (SPEC sections 6 and 8): identity check, registry account, current
// organization (stored across visits), 401 and 'Invalid participant' from any call, a role
// refusal (SPEC section 6's 'Invalid Permissions' page), sign-out.
import {
  assertEvent,
  assign,
  emit,
  fromCallback,
  fromPromise,
  sendTo,
  setup,
  type ActorRefFrom,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import { isInvalidParticipant, isNotFound, isPermissionRefusal, isUnauthorized } from '../src/contract/http-error';
import type { FigureInfo } from '../src/contract/identity';
import type { UserParticipant } from '../src/contract/participants';
import type { User } from '../src/contract/users';
import { APP_PATHS } from '../src/domain/app-paths';
import { chooseParticipantId } from '../src/domain/organizations';
import { isRegistryAdmin } from '../src/domain/roles';
import { TEXTS } from '../src/domain/texts';
import { toastShow } from './toasts';

export interface SessionInput {
  /** The organization remembered from the last visit, if any. */
  readonly storedParticipantId: string | null;
}

export interface Account {
  readonly user: User;
  readonly organizations: readonly UserParticipant[];
}

export interface SessionContext {
  readonly identity: FigureInfo | null;
  readonly user: User | null;
  readonly organizations: readonly UserParticipant[];
  readonly participantId: string | null;
}

export type SessionEvent =
  /** returnTo: the screen to come back to after signing in (an app path, appReturnTo), if any. */
  | { type: 'session.logIn'; returnTo?: string }
  | { type: 'session.signOut' }
  | { type: 'session.retry' }
  /**
   * A product call failed; 401, a role refusal and 'Invalid participant' change the session,
   * others do not. A screen whose calls do not report to the session (no organization header)
   * sends its failure here itself.
   */
  | { type: 'session.callFailed'; error: unknown }
  /** The user went to another screen (or the same one again): a refusal shown in its place ends. */
  | { type: 'session.pageChanged' }
  | { type: 'organization.switch'; participantId: string };

/**
 * What the session tells the app-wide actors: the organization the signed-in user acts for now
 * (null: none, before sign-in, while the account loads again, after sign-out). Emitted on every
 * change; the actors that hold an organization's data follow it (followOrganization below).
 */
export interface OrganizationChanged {
  readonly type: 'session.organizationChanged';
  readonly participantId: string | null;
}

export const sessionMachine = setup({
  types: {
    input: {} as SessionInput,
    context: {} as SessionContext,
    events: {} as SessionEvent,
    emitted: {} as OrganizationChanged,
  },
  actors: {
    fetchIdentity: fromPromise<FigureInfo>(async () => {
      throw new Error('fetchIdentity is provided by the app');
    }),
    fetchAccount: fromPromise<Account, { participantId: string | null }>(async () => {
      throw new Error('fetchAccount is provided by the app');
    }),
    logout: fromPromise<void>(async () => {
      throw new Error('logout is provided by the app');
    }),
  },
  guards: {
    isUnauthorized: ({ event }) => 'error' in event && isUnauthorized(event.error),
    /** A role the caller lacks (decision 0010's bodies): checked before isInvalidParticipant, which takes any 403. */
    isPermissionRefusal: ({ event }) => 'error' in event && isPermissionRefusal(event.error),
    isInvalidParticipant: ({ event }) => 'error' in event && isInvalidParticipant(event.error),
    /** Invalid participant while an organization was named: asking again without one can help. */
    isInvalidNamedParticipant: ({ context, event }) =>
      'error' in event && isInvalidParticipant(event.error) && context.participantId !== null,
    isNotRegistered: ({ event }) => 'error' in event && isNotFound(event.error),
    /** The account loaded, but none of its organizations is active: no organization to act for. */
    hasNoOrganization: ({ event }) => 'output' in event && (event.output as Account).organizations.length === 0,
    /** Another organization of the user's: choosing the current one again is no switch. */
    isMemberOrganization: ({ context, event }) =>
      event.type === 'organization.switch' &&
      event.participantId !== context.participantId &&
      context.organizations.some((entry) => entry.participant.id === event.participantId),
  },
  actions: {
    // Provided by the app: browser storage, navigation and the hosted sign-in page.
    storeParticipant: (_, _params: { participantId: string | null }) => undefined,
    clearStoredParticipant: () => undefined,
    navigateToDashboard: () => undefined,
    /** SPEC section 8's toast, through the app's toasts actor (machines/app-root.ts). */
    notifyInvalidParticipant: sendTo(({ system }) => system.get('toasts'), toastShow('error', TEXTS.invalidParticipantToast)),
    announceOrganization: emit(({ context }) => ({ type: 'session.organizationChanged' as const, participantId: context.participantId })),
    announceNoOrganization: emit({ type: 'session.organizationChanged' as const, participantId: null }),
    startHostedLogin: (_, _params: { returnTo: string | null }) => undefined,
    forgetParticipant: assign({ participantId: null }),
    forgetIdentity: assign({ identity: null, user: null, organizations: [], participantId: null }),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ identity: null, user: null, organizations: [], participantId: input.storedParticipantId }),
  initial: 'checkingIdentity',
  states: {
    checkingIdentity: {
      tags: ['busy'],
      invoke: {
        src: 'fetchIdentity',
        onDone: { target: 'loadingAccount', actions: assign({ identity: ({ event }) => event.output }) },
        onError: [{ guard: 'isUnauthorized', target: 'signedOut.unauthorized', actions: 'forgetIdentity' }, { target: 'failed' }],
      },
    },
    loadingAccount: {
      tags: ['busy', 'identified'],
      invoke: {
        src: 'fetchAccount',
        input: ({ context }) => ({ participantId: context.participantId }),
        onDone: [
          {
            // Without this, the dashboard's calls (no organization to name) answered Invalid
            // participant, which loaded the account again: a loop of reloads and toasts.
            guard: 'hasNoOrganization',
            target: 'noOrganization',
            actions: [
              assign(({ event }) => ({ user: event.output.user, organizations: [], participantId: null })),
              'clearStoredParticipant',
            ],
          },
          {
            target: 'signedIn',
            actions: [
              assign(({ event, context }) => ({
                user: event.output.user,
                organizations: event.output.organizations,
                participantId: chooseParticipantId(event.output.organizations, context.participantId),
              })),
              { type: 'storeParticipant', params: ({ context }) => ({ participantId: context.participantId }) },
            ],
          },
        ],
        onError: [
          {
            guard: 'isInvalidNamedParticipant',
            target: 'loadingAccount',
            reenter: true,
            actions: ['forgetParticipant', 'clearStoredParticipant', 'notifyInvalidParticipant', 'navigateToDashboard'],
          },
          { guard: 'isUnauthorized', target: 'signedOut.unauthorized', actions: 'forgetIdentity' },
          { guard: 'isNotRegistered', target: 'unregistered' },
          { target: 'failed' },
        ],
      },
    },
    signedIn: {
      tags: ['identified', 'authenticated'],
      entry: 'announceOrganization',
      exit: 'announceNoOrganization',
      initial: 'active',
      states: {
        active: {},
        /**
         * SPEC section 6: a call refused for a role the user lacks; the shell shows the 'Invalid
         * Permissions' page in place of the screen (its address stays, as a server's 403 page
         * would) until the user goes to another screen.
         */
        permissionRefused: {
          on: { 'session.pageChanged': { target: 'active' } },
        },
      },
      on: {
        'organization.switch': {
          guard: 'isMemberOrganization',
          target: '.active',
          actions: [
            assign({
              participantId: ({ event }) => {
                assertEvent(event, 'organization.switch');
                return event.participantId;
              },
            }),
            { type: 'storeParticipant', params: ({ context }) => ({ participantId: context.participantId }) },
            'announceOrganization',
            'navigateToDashboard',
          ],
        },
        'session.callFailed': [
          { guard: 'isUnauthorized', target: 'checkingIdentity' },
          { guard: 'isPermissionRefusal', target: '.permissionRefused' },
          {
            guard: 'isInvalidParticipant',
            target: 'loadingAccount',
            actions: ['forgetParticipant', 'clearStoredParticipant', 'notifyInvalidParticipant', 'navigateToDashboard'],
          },
        ],
        'session.signOut': { target: 'signingOut' },
      },
    },
    unregistered: {
      tags: ['identified'],
      on: { 'session.signOut': { target: 'signingOut' } },
    },
    /** Registered, but every organization of the account is inactive (SPEC section 4 deactivates them). */
    noOrganization: {
      tags: ['identified'],
      on: { 'session.signOut': { target: 'signingOut' } },
    },
    signingOut: {
      tags: ['busy'],
      invoke: {
        src: 'logout',
        onDone: { target: 'signedOut.byUser', actions: ['forgetIdentity', 'clearStoredParticipant'] },
        onError: [
          { guard: 'isUnauthorized', target: 'signedOut.byUser', actions: ['forgetIdentity', 'clearStoredParticipant'] },
          { target: 'failed' },
        ],
      },
    },
    signedOut: {
      initial: 'unauthorized',
      states: {
        /** The server answered 401: protected screens send the user to login with the notice. */
        unauthorized: {},
        /** The user signed out: login without the notice. */
        byUser: {},
      },
      on: {
        'session.logIn': { actions: { type: 'startHostedLogin', params: ({ event }) => ({ returnTo: event.returnTo ?? null }) } },
      },
    },
    failed: {
      on: { 'session.retry': { target: 'checkingIdentity' } },
    },
  },
});

// Selectors: what components and services read from the session, derived here once.
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export const selectParticipantId = (snapshot: SessionSnapshot): string | null => snapshot.context.participantId;
/** The organization the signed-in user acts for; null before sign-in completes or after sign-out. */
export const selectSignedInOrganization = (snapshot: SessionSnapshot): string | null =>
  snapshot.matches('signedIn') ? snapshot.context.participantId : null;
export const selectOrganizations = (snapshot: SessionSnapshot): readonly UserParticipant[] => snapshot.context.organizations;
/** The organization product calls act for, or null before the account is loaded. */
export const selectCurrentOrganization = (snapshot: SessionSnapshot): UserParticipant | null =>
  snapshot.context.organizations.find((entry) => entry.participant.id === snapshot.context.participantId) ?? null;
export const selectUserFirstName = (snapshot: SessionSnapshot): string => snapshot.context.user?.firstName ?? '';
const noRoles: FigureInfo['roles'] = {};
export const selectRoles = (snapshot: SessionSnapshot): FigureInfo['roles'] => snapshot.context.identity?.roles ?? noRoles;
/** SPEC section 6: ROLE_DART_ADMIN or ROLE_DART_OPS of service-dart (the Organizations menu entry). */
export const selectIsRegistryStaff = (snapshot: SessionSnapshot): boolean => isRegistryAdmin(selectRoles(snapshot));
/** SPEC section 6: a call was refused for a role the user lacks; the 'Invalid Permissions' page shows. */
export const selectPermissionRefused = (snapshot: SessionSnapshot): boolean => snapshot.matches({ signedIn: 'permissionRefused' });
/** True until the session knows whether someone is signed in (its first identity and account loads). */
export const selectSessionSettling = (snapshot: SessionSnapshot): boolean =>
  snapshot.matches('checkingIdentity') || snapshot.matches('loadingAccount');
/** Where a protected screen sends the user: login with the 401 notice, plain login, or nowhere (null). */
export const selectLoginRedirect = (snapshot: SessionSnapshot): string | null => {
  if (snapshot.matches({ signedOut: 'unauthorized' })) return APP_PATHS.loginUnauthorized;
  if (snapshot.matches('signedOut') || snapshot.matches('unregistered') || snapshot.matches('noOrganization')) return APP_PATHS.login;
  return null;
};

/**
 * Invoked by an app-wide actor that holds one organization's data (the unread count, the batch
 * download): sends it `whenKnown` each time the session names an organization (sign-in, switch,
 * the account loaded again) and `whenUnknown` when it names none. It reaches the session through
 * the actor system (systemId 'session'); without one (a machine tested alone) it sends nothing.
 */
export const followOrganization = fromCallback<EventObject, { whenKnown: EventObject; whenUnknown: EventObject }>(
  ({ system, input, sendBack }) => {
    const session = system.get('session') as ActorRefFrom<typeof sessionMachine> | undefined;
    if (!session) return undefined;
    if (selectSignedInOrganization(session.getSnapshot())) sendBack(input.whenKnown);
    const subscription = session.on('session.organizationChanged', ({ participantId }) =>
      sendBack(participantId ? input.whenKnown : input.whenUnknown),
    );
    return () => subscription.unsubscribe();
  },
);
