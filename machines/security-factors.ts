// The profile's security factors (/profile; SPEC sections 2, 6, 7 and 8): the list (type, masked
// value, required), adding a factor by type (the call redirects to the hosted page, which returns
// here with the nonce), removing one where SPEC section 6 allows it (after a confirm step; where
// it does not, the reason instead of the button), and the password change entry for a manageable
// account only. A failed call is said by a toast with the server's message (SPEC section 8).
import { assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import type { AuthenticationFactor, FactorList } from '../src/contract/security-factors';
import { FACTOR_TEXTS, factorRemovalRefusal, type FactorType } from '../src/domain/security-factors';
import { toastShow } from './toasts';

export interface SecurityFactorsInput {
  /** How the page was reached: back from the hosted page with the nonce this browser sent ('matched'), another ('mismatched'), or not. */
  readonly returned?: 'matched' | 'mismatched' | null;
}

export interface SecurityFactorsContext {
  readonly list: FactorList | null;
  /** The factor whose removal is being confirmed or sent. */
  readonly removing: AuthenticationFactor | null;
  readonly returned: 'matched' | 'mismatched' | null;
}

export type SecurityFactorsEvent =
  | { type: 'factors.reload' }
  | { type: 'factor.add'; factorType: FactorType }
  | { type: 'factor.remove'; factorId: string }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' }
  | { type: 'password.change' };

/** Where a call that redirects ended: the hosted page to open, or null when it finished here. */
export interface Redirected {
  readonly hostedUrl: string | null;
}

/** SPEC section 8: the error message as the toast (the server's, else a fallback). */
export const failureMessage = (error: unknown, fallback: string): string =>
  (isHttpError(error) && error.status >= 400 && error.status < 500 && error.serverMessage) || fallback;

const RETURN_MISMATCH = 'This change was not started from this page. Nothing was done here.';
export const PASSWORD_CHANGE_FAILED = 'Unable to open the password change';

export const securityFactorsMachine = setup({
  types: {
    input: {} as SecurityFactorsInput,
    context: {} as SecurityFactorsContext,
    events: {} as SecurityFactorsEvent,
  },
  actors: {
    // Provided by the screen: GET .../self/authentication/factors.
    loadFactors: fromPromise<FactorList, void>(async () => {
      throw new Error('loadFactors is provided by the screen');
    }),
    // Provided by the screen: POST .../self/authentication/factors?type=&externalStateNonce= (a fresh nonce kept for the return).
    startEnrolment: fromPromise<Redirected, { factorType: FactorType }>(async () => {
      throw new Error('startEnrolment is provided by the screen');
    }),
    // Provided by the screen: DELETE .../self/authentication/factors/{id}?externalStateNonce=.
    removeFactor: fromPromise<Redirected, { factorId: string }>(async () => {
      throw new Error('removeFactor is provided by the screen');
    }),
    // Provided by the screen: POST .../self/password-reset (redirects to the hosted password page).
    startPasswordChange: fromPromise<Redirected, void>(async () => {
      throw new Error('startPasswordChange is provided by the screen');
    }),
  },
  guards: {
    mayRemove: ({ context, event }) => {
      assertEvent(event, 'factor.remove');
      return context.list !== null && removalRefusalOf(context.list, event.factorId) === null;
    },
    passwordManageable: ({ context }) => context.list?.passwordManageable === true,
    leavesForHostedPage: ({ event }) => (event as unknown as { output: Redirected }).output.hostedUrl !== null,
  },
  actions: {
    keepList: assign(({ event }) => ({ list: (event as unknown as { output: FactorList }).output })),
    keepRemoving: assign(({ context, event }) => {
      assertEvent(event, 'factor.remove');
      return { removing: context.list?.factors.find((factor) => factor.ids[0] === event.factorId) ?? null };
    }),
    clearRemoving: assign({ removing: null }),
    notifyReturn: sendTo(
      ({ system }) => system.get('toasts'),
      ({ context }) => (context.returned === 'mismatched' ? toastShow('error', RETURN_MISMATCH) : toastShow('success', FACTOR_TEXTS.added)),
    ),
    forgetReturn: assign({ returned: null }),
    notifyRemoved: sendTo(({ system }) => system.get('toasts'), toastShow('success', FACTOR_TEXTS.removed)),
    notifyLoadFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', FACTOR_TEXTS.loadFailed)),
    notifyAddFailed: sendTo(
      ({ system }) => system.get('toasts'),
      ({ event }) => toastShow('error', failureMessage((event as unknown as { error: unknown }).error, FACTOR_TEXTS.addFailed)),
    ),
    notifyRemoveFailed: sendTo(
      ({ system }) => system.get('toasts'),
      ({ event }) => toastShow('error', failureMessage((event as unknown as { error: unknown }).error, FACTOR_TEXTS.removeFailed)),
    ),
    notifyPasswordFailed: sendTo(
      ({ system }) => system.get('toasts'),
      ({ event }) => toastShow('error', failureMessage((event as unknown as { error: unknown }).error, PASSWORD_CHANGE_FAILED)),
    ),
    /** Provided by the screen: the browser goes to the hosted page the call redirected to. */
    openHostedPage: (_, _params: { url: string }) => undefined,
    /** Provided by the screen: the focus back to the list's heading after the confirm step. */
    focusList: () => undefined,
    /** Provided by the screen: the focus to the removal question. */
    focusRemoval: () => undefined,
  },
}).createMachine({
  id: 'securityFactors',
  context: ({ input }) => ({ list: null, removing: null, returned: input.returned ?? null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadFactors',
        onDone: [
          { guard: ({ context }) => context.returned !== null, target: 'ready', actions: ['keepList', 'notifyReturn', 'forgetReturn'] },
          { target: 'ready', actions: 'keepList' },
        ],
        onError: { target: 'loadFailed', actions: 'notifyLoadFailed' },
      },
    },
    loadFailed: {
      on: { 'factors.reload': 'loading' },
    },
    ready: {
      on: {
        'factor.add': 'adding',
        'factor.remove': { guard: 'mayRemove', target: 'confirming', actions: 'keepRemoving' },
        'password.change': { guard: 'passwordManageable', target: 'changingPassword' },
      },
    },
    /** The factor named and what removal means, before anything is sent. */
    confirming: {
      entry: 'focusRemoval',
      on: {
        'removal.confirm': 'removing',
        'removal.cancel': { target: 'ready', actions: ['clearRemoving', 'focusList'] },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        src: 'removeFactor',
        input: ({ context }) => ({ factorId: context.removing?.ids[0] ?? '' }),
        onDone: [
          {
            guard: 'leavesForHostedPage',
            target: 'leaving',
            actions: { type: 'openHostedPage', params: ({ event }) => ({ url: event.output.hostedUrl ?? '' }) },
          },
          { target: 'loading', actions: ['clearRemoving', 'notifyRemoved'] },
        ],
        onError: { target: 'ready', actions: ['clearRemoving', 'notifyRemoveFailed'] },
      },
    },
    adding: {
      tags: ['busy'],
      invoke: {
        src: 'startEnrolment',
        input: ({ event }) => {
          assertEvent(event, 'factor.add');
          return { factorType: event.factorType };
        },
        onDone: {
          target: 'leaving',
          actions: { type: 'openHostedPage', params: ({ event }) => ({ url: event.output.hostedUrl ?? '' }) },
        },
        onError: { target: 'ready', actions: 'notifyAddFailed' },
      },
    },
    changingPassword: {
      tags: ['busy'],
      invoke: {
        src: 'startPasswordChange',
        onDone: {
          target: 'leaving',
          actions: { type: 'openHostedPage', params: ({ event }) => ({ url: event.output.hostedUrl ?? '' }) },
        },
        onError: { target: 'ready', actions: 'notifyPasswordFailed' },
      },
    },
    /** The browser is on its way to a hosted page. */
    leaving: {
      tags: ['busy'],
    },
  },
});

export type SecurityFactorsSnapshot = SnapshotFrom<typeof securityFactorsMachine>;

/** Why a factor may not be removed (SPEC section 6), or null. */
export function removalRefusalOf(list: FactorList, factorId: string): string | null {
  return factorRemovalRefusal(
    factorId,
    list.factors.map((factor) => ({ id: factor.ids[0] ?? '', type: factor.type, editable: factor.editable, required: factor.required })),
    list.requireAtLeastOneOf,
  );
}

export interface FactorRow {
  readonly factor: AuthenticationFactor;
  readonly id: string;
  /** Null where the factor may be removed; else why not. */
  readonly refusal: string | null;
}

export const selectFactorRows = (snapshot: SecurityFactorsSnapshot): readonly FactorRow[] => {
  const list = snapshot.context.list;
  if (!list) return [];
  return list.factors.map((factor) => ({ factor, id: factor.ids[0] ?? '', refusal: removalRefusalOf(list, factor.ids[0] ?? '') }));
};
export const selectIsLoadingFactors = (snapshot: SecurityFactorsSnapshot): boolean =>
  snapshot.hasTag('loading') && snapshot.context.list === null;
export const selectFactorsLoadFailed = (snapshot: SecurityFactorsSnapshot): boolean => snapshot.matches('loadFailed');
export const selectIsBusy = (snapshot: SecurityFactorsSnapshot): boolean => snapshot.hasTag('busy');
export const selectRemovalCandidate = (snapshot: SecurityFactorsSnapshot): AuthenticationFactor | null =>
  snapshot.matches('confirming') || snapshot.matches('removing') ? snapshot.context.removing : null;
export const selectPasswordManageable = (snapshot: SecurityFactorsSnapshot): boolean => snapshot.context.list?.passwordManageable === true;
