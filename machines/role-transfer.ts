// The asset page's role transfer request: a dialog that loads the directory of active
// organizations once per opening, then the form (role among those the organization may transfer,
// the receiving organization searched in the directory), its review and the request. Sent: a
// toast, the dialog closes and the asset page loads the loan again (the role now PENDING). Refused
// by the server (400, 409): its message stays in the dialog over the kept draft; any other
// failure: a toast (and the same in the dialog), the review kept for another try.
import { assertEvent, assign, fromPromise, not, sendTo, setup, stateIn, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import type { DirectoryEntry, RoleRequest, RoleRequestBody } from '../src/contract/role-requests';
import {
  ROLE_TRANSFER_TEXTS,
  roleTransferErrors,
  transferableRoles,
  type RoleTransferDraft,
  type RoleTransferErrors,
  type TransferableRole,
  type TransferParty,
} from '../src/domain/role-transfer';
import { toastShow } from './toasts';

/** What a transfer is asked about: the loan, the asking organization and the loan's parties. */
export interface TransferSubject {
  readonly loanId: string;
  readonly uli: string;
  /** The current organization: the one asking. */
  readonly participantId: string;
  readonly parties: readonly TransferParty[];
}

/** A role the organization may transfer; a PENDING one is shown but cannot be chosen. */
export interface RoleChoice {
  readonly role: TransferableRole;
  /** The organization holding the role now (null: a name without an organization). */
  readonly holderId: string | null;
  readonly pending: boolean;
}

/** The roles `subject.participantId` may ask to transfer (the server's rule), with their holder and state. */
export function roleChoices(subject: Pick<TransferSubject, 'participantId' | 'parties'>): RoleChoice[] {
  return transferableRoles(subject.parties, subject.participantId).map((role) => {
    const party = subject.parties.find((entry) => entry.role === role);
    return { role, holderId: party?.participantId ?? null, pending: party?.state === 'PENDING' };
  });
}

/** What the transfer needs of a loaded asset; null when the organization may transfer no role of it. */
export function transferSubject(
  details: {
    readonly loan: {
      readonly loanId: string;
      readonly deactivated: boolean;
      readonly loanData: { readonly loan: { readonly uli: string } };
    };
    readonly parties: readonly TransferParty[];
  } | null,
  participantId: string | null,
): TransferSubject | null {
  if (!details || !participantId || details.loan.deactivated) return null;
  const subject = { loanId: details.loan.loanId, uli: details.loan.loanData.loan.uli, participantId, parties: details.parties };
  return roleChoices(subject).length > 0 ? subject : null;
}

export interface RoleTransferContext {
  readonly subject: TransferSubject | null;
  readonly choices: readonly RoleChoice[];
  readonly directory: readonly DirectoryEntry[];
  readonly draft: RoleTransferDraft;
  /** The text typed in the receiving organization's search. */
  readonly query: string;
  /** From the first review asked for on, the rules' errors show. */
  readonly showErrors: boolean;
  /** The server's refusal (a 400 or 409 message) of the last request. */
  readonly refusal: string | null;
}

export type RoleTransferEvent =
  | { type: 'transfer.open'; subject: TransferSubject }
  | { type: 'transfer.close' }
  | { type: 'directory.retry' }
  | { type: 'form.role'; role: TransferableRole | '' }
  | { type: 'form.search'; query: string }
  | { type: 'form.receiver'; receiverId: string }
  | { type: 'form.review' }
  | { type: 'form.back' }
  | { type: 'form.submit' };

/** What the request actor sends. */
export interface RoleTransferSubmission {
  readonly loanId: string;
  readonly body: RoleRequestBody;
}

const EMPTY_DRAFT: RoleTransferDraft = { role: '', receiverId: '' };

const holderOf = (context: Pick<RoleTransferContext, 'choices'>, role: TransferableRole | '') =>
  context.choices.find((choice) => choice.role === role)?.holderId ?? null;

/** The organizations the role may go to: the directory without the asking organization and the role's holder. */
export function receiverCandidates(context: RoleTransferContext): readonly DirectoryEntry[] {
  const holder = holderOf(context, context.draft.role);
  return context.directory.filter((entry) => entry.id !== context.subject?.participantId && entry.id !== holder);
}

/** The candidates whose name holds the typed text (any case). */
export function receiverOptions(context: RoleTransferContext): readonly DirectoryEntry[] {
  const needle = context.query.trim().toLowerCase();
  const candidates = receiverCandidates(context);
  return needle ? candidates.filter((entry) => entry.name.toLowerCase().includes(needle)) : candidates;
}

export const visibleErrors = (context: RoleTransferContext): RoleTransferErrors =>
  context.showErrors ? roleTransferErrors(context.draft) : {};

/** The first field with an error, in form order. */
const firstInvalidField = (errors: RoleTransferErrors): keyof RoleTransferDraft | undefined =>
  errors.role ? 'role' : errors.receiverId ? 'receiverId' : undefined;

export const roleTransferMachine = setup({
  types: {
    context: {} as RoleTransferContext,
    events: {} as RoleTransferEvent,
  },
  actors: {
    // Provided by the app: GET v1 /participants/directory.
    loadDirectory: fromPromise<readonly DirectoryEntry[]>(async () => {
      throw new Error('loadDirectory is provided by the app');
    }),
    // Provided by the app: POST v1 /loans/{loanId}/role-requests.
    sendRequest: fromPromise<RoleRequest, RoleTransferSubmission>(async () => {
      throw new Error('sendRequest is provided by the app');
    }),
  },
  actions: {
    start: assign(({ event }) => {
      assertEvent(event, 'transfer.open');
      return {
        subject: event.subject,
        choices: roleChoices(event.subject),
        directory: [],
        draft: EMPTY_DRAFT,
        query: '',
        showErrors: false,
        refusal: null,
      };
    }),
    /** A new role lets go of a receiver that holds it. */
    chooseRole: assign(({ context, event }) => {
      assertEvent(event, 'form.role');
      const receiverId = context.draft.receiverId === holderOf(context, event.role) ? '' : context.draft.receiverId;
      return { draft: { role: event.role, receiverId } };
    }),
    search: assign(({ event }) => {
      assertEvent(event, 'form.search');
      return { query: event.query };
    }),
    chooseReceiver: assign(({ context, event }) => {
      assertEvent(event, 'form.receiver');
      return { draft: { ...context.draft, receiverId: event.receiverId }, query: '' };
    }),
    showErrors: assign({ showErrors: true }),
    keepRefusal: assign({ refusal: ({ event }) => ('error' in event && isHttpError(event.error) ? event.error.serverMessage : null) }),
    clearRefusal: assign({ refusal: null }),
    /** Provided by the screen: moves the focus to a field (none: nothing to do). */
    focusField: (_, _params: { field: keyof RoleTransferDraft | undefined }) => undefined,
    // The app's toasts actor (machines/app-root.ts): the dialog runs as a child of the root.
    notifySent: sendTo(({ system }) => system.get('toasts'), toastShow('success', ROLE_TRANSFER_TEXTS.sent)),
    notifyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', ROLE_TRANSFER_TEXTS.failed)),
    /** Provided by the screen: the asset page loads the loan again. */
    reloadAsset: () => undefined,
  },
  guards: {
    /** No role, or one that may be chosen (not PENDING). */
    isChoosableRole: ({ context, event }) =>
      event.type === 'form.role' && (event.role === '' || context.choices.some((choice) => choice.role === event.role && !choice.pending)),
    isCandidate: ({ context, event }) =>
      event.type === 'form.receiver' && receiverCandidates(context).some((entry) => entry.id === event.receiverId),
    isValid: ({ context }) => Object.keys(roleTransferErrors(context.draft)).length === 0,
    /** A request on its way is not left half-way. */
    isNotSending: not(stateIn({ open: 'submitting' })),
    /** The server's refusals of a request (SPEC: 4xx bodies say what was wrong); anything else is a failure. */
    isRefusal: ({ event }) => 'error' in event && isHttpError(event.error) && (event.error.status === 400 || event.error.status === 409),
  },
}).createMachine({
  id: 'roleTransfer',
  context: { subject: null, choices: [], directory: [], draft: EMPTY_DRAFT, query: '', showErrors: false, refusal: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'transfer.open': { target: 'open', actions: 'start' } },
    },
    open: {
      initial: 'loading',
      on: {
        // Cancel, Escape or a click outside.
        'transfer.close': { guard: 'isNotSending', target: 'closed' },
      },
      states: {
        /** The directory, once per opening. */
        loading: {
          tags: ['busy'],
          invoke: {
            src: 'loadDirectory',
            onDone: { target: 'editing', actions: assign({ directory: ({ event }) => event.output }) },
            onError: { target: 'directoryFailed' },
          },
        },
        directoryFailed: {
          on: { 'directory.retry': { target: 'loading' } },
        },
        editing: {
          on: {
            'form.role': { guard: 'isChoosableRole', actions: 'chooseRole' },
            'form.search': { actions: 'search' },
            'form.receiver': { guard: 'isCandidate', actions: 'chooseReceiver' },
            'form.review': [
              { guard: 'isValid', target: 'reviewing' },
              {
                actions: [
                  'showErrors',
                  { type: 'focusField', params: ({ context }) => ({ field: firstInvalidField(roleTransferErrors(context.draft)) }) },
                ],
              },
            ],
          },
        },
        reviewing: {
          on: {
            'form.back': { target: 'editing' },
            'form.submit': { target: 'submitting' },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            src: 'sendRequest',
            input: ({ context }) => ({
              loanId: context.subject?.loanId ?? '',
              body: { role: context.draft.role as TransferableRole, participantId: context.draft.receiverId },
            }),
            onDone: { target: '#roleTransfer.closed', actions: ['notifySent', 'reloadAsset'] },
            onError: [
              { guard: 'isRefusal', target: 'failed', actions: 'keepRefusal' },
              { target: 'failed', actions: 'notifyFailed' },
            ],
          },
        },
        /** The review again, with the server's refusal when it gave one; back to the form, or send again. */
        failed: {
          on: {
            'form.back': { target: 'editing', actions: 'clearRefusal' },
            'form.submit': { target: 'submitting', actions: 'clearRefusal' },
          },
        },
      },
    },
  },
});

export type RoleTransferSnapshot = SnapshotFrom<typeof roleTransferMachine>;

export type RoleTransferStep = 'closed' | 'loading' | 'directoryFailed' | 'editing' | 'reviewing' | 'submitting' | 'failed';

/** Where the dialog is: closed, or the step of the open dialog. */
export const selectStep = (snapshot: RoleTransferSnapshot): RoleTransferStep =>
  typeof snapshot.value === 'string' ? 'closed' : (snapshot.value.open as RoleTransferStep);
export const selectIsOpen = (snapshot: RoleTransferSnapshot): boolean => !snapshot.matches('closed');
export const selectIsBusy = (snapshot: RoleTransferSnapshot): boolean => snapshot.hasTag('busy');
export const selectChoices = (snapshot: RoleTransferSnapshot): readonly RoleChoice[] => snapshot.context.choices;
export const selectDraft = (snapshot: RoleTransferSnapshot): RoleTransferDraft => snapshot.context.draft;
export const selectQuery = (snapshot: RoleTransferSnapshot): string => snapshot.context.query;
export const selectUli = (snapshot: RoleTransferSnapshot): string => snapshot.context.subject?.uli ?? '';
export const selectReceiverOptions = (snapshot: RoleTransferSnapshot): readonly DirectoryEntry[] => receiverOptions(snapshot.context);
/** The chosen receiving organization, as the directory names it. */
export const selectReceiver = (snapshot: RoleTransferSnapshot): DirectoryEntry | null =>
  snapshot.context.directory.find((entry) => entry.id === snapshot.context.draft.receiverId) ?? null;
export const selectVisibleErrors = (snapshot: RoleTransferSnapshot): RoleTransferErrors => visibleErrors(snapshot.context);
export const selectRefusal = (snapshot: RoleTransferSnapshot): string | null => snapshot.context.refusal;
/**
 * What the dialog says of a failed request: the server's refusal, else that it could not be sent
 * (beside the toast, which a screen reader may not reach behind the modal dialog).
 */
export const selectFailure = (snapshot: RoleTransferSnapshot): string | null =>
  snapshot.matches({ open: 'failed' }) ? (snapshot.context.refusal ?? ROLE_TRANSFER_TEXTS.failed) : null;
