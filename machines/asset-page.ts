// The asset page (SPEC sections 2, 3 and 4): one loan's details and history, loaded together
// once per loan id (the tabs Details, History and Documents are routes over the same data).
// An unknown or foreign loan (404) and a malformed id (refused before any call, or 400 from
// the server) end in `notFound`, never an empty page. After a change made from the page
// (a role transfer request) the loan is loaded again while the loaded one stays on screen.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { deactivationSubjectOf } from '../src/contract/deactivation';
import { isGone, isHttpError, isNotFound } from '../src/contract/http-error';
import { loanIdParamsSchema, type LoanDetails, type LoanEvent } from '../src/contract/loans';
import { deactivationBlocker } from '../src/domain/deactivation';
import { historyEvents } from '../src/domain/loan-history';
import { detailStatus, type DetailStatus } from '../src/domain/loan';

export interface AssetPageInput {
  /** The `:loanId` route parameter, as typed in the URL. */
  readonly loanId: string;
  /** The asset list view (path and query) the page was opened from; none: the default list. */
  readonly returnTo?: string | null;
}

export interface AssetRecord {
  readonly details: LoanDetails;
  readonly events: readonly LoanEvent[];
}

export interface AssetPageContext {
  readonly loanId: string;
  readonly details: LoanDetails | null;
  /** The events the History tab shows (SPEC section 4), computed once when they arrive. */
  readonly history: readonly LoanEvent[];
  readonly status: DetailStatus | null;
  /** Where 'Back to assets' goes (null: the default asset list); kept across the tabs. */
  readonly returnTo: string | null;
}

export type AssetPageEvent = { type: 'asset.retry' } | { type: 'asset.reload' };

export const assetPageMachine = setup({
  types: {
    input: {} as AssetPageInput,
    context: {} as AssetPageContext,
    events: {} as AssetPageEvent,
  },
  actors: {
    // Provided by the app: details and events of one loan, in parallel, aborted with `signal`.
    loadAsset: fromPromise<AssetRecord, { loanId: string }>(async () => {
      throw new Error('loadAsset is provided by the app');
    }),
  },
  actions: {
    keepAsset: assign((_, output: AssetRecord) => ({
      details: output.details,
      history: historyEvents(output.events),
      status: detailStatus(
        { status: output.details.loan.loanData.status, deactivated: output.details.loan.deactivated },
        output.details.parties.map((party) => party.state),
      ),
    })),
  },
  guards: {
    isWellFormedLoanId: ({ context }) => loanIdParamsSchema.safeParse({ id: context.loanId }).success,
    // A 404 (unknown or foreign: the server does not tell them apart) or a 400 (malformed id).
    isMissingLoan: ({ event }) => 'error' in event && (isNotFound(event.error) || (isHttpError(event.error) && event.error.status === 400)),
    // A 410: the organization took part in this loan, but its role has moved on since.
    isNoLongerHeld: ({ event }) => 'error' in event && isGone(event.error),
  },
}).createMachine({
  id: 'assetPage',
  context: ({ input }) => ({ loanId: input.loanId, details: null, history: [], status: null, returnTo: input.returnTo ?? null }),
  initial: 'checkingId',
  states: {
    /** Transient: a malformed id is refused without asking the server. */
    checkingId: {
      always: [{ guard: 'isWellFormedLoanId', target: 'loading' }, { target: 'notFound' }],
    },
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadAsset',
        input: ({ context }) => ({ loanId: context.loanId }),
        onDone: { target: 'ready', actions: { type: 'keepAsset', params: ({ event }) => event.output } },
        onError: [
          { guard: 'isNoLongerHeld', target: 'noLongerHeld' },
          { guard: 'isMissingLoan', target: 'notFound' },
          { target: 'failed' },
        ],
      },
    },
    ready: {
      tags: ['loaded'],
      on: { 'asset.reload': { target: 'reloading' } },
    },
    /** The loaded asset stays on screen while it is loaded again. */
    reloading: {
      tags: ['loaded'],
      invoke: {
        src: 'loadAsset',
        input: ({ context }) => ({ loanId: context.loanId }),
        onDone: { target: 'ready', actions: { type: 'keepAsset', params: ({ event }) => event.output } },
        onError: [
          { guard: 'isNoLongerHeld', target: 'noLongerHeld' },
          { guard: 'isMissingLoan', target: 'notFound' },
          { target: 'failed' },
        ],
      },
    },
    notFound: {},
    /** Its role moved on (a message can still lead here): the page says so instead of 'not found'. */
    noLongerHeld: {},
    failed: {
      on: { 'asset.retry': { target: 'loading' } },
    },
  },
});

type AssetPageSnapshot = { context: AssetPageContext };

export const selectReturnTo = (snapshot: AssetPageSnapshot): string | null => snapshot.context.returnTo;
export const selectLoanDetails = (snapshot: AssetPageSnapshot): LoanDetails | null => snapshot.context.details;
export const selectHistory = (snapshot: AssetPageSnapshot): readonly LoanEvent[] => snapshot.context.history;
export const selectDetailStatus = (snapshot: AssetPageSnapshot): DetailStatus | null => snapshot.context.status;
/** The organization's role on the loan moved on: the page says so (not 'not found'). */
export const selectIsNoLongerHeld = (snapshot: SnapshotFrom<typeof assetPageMachine>): boolean => snapshot.matches('noLongerHeld');
export const selectUli = (snapshot: AssetPageSnapshot): string | null => snapshot.context.details?.loan.loanData.loan.uli ?? null;
/** An Active loan not yet deactivated can be asked to be (the server decides who may). */
/** The deactivation is offered when `participantId` may ask for it now (deactivationBlocker); the server has the last word. */
export const selectCanRequestDeactivation = (snapshot: AssetPageSnapshot, participantId: string | null): boolean => {
  const details = snapshot.context.details;
  return details !== null && participantId !== null && deactivationBlocker(deactivationSubjectOf(details, participantId)) === null;
};
