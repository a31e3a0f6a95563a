// The deactivation request form (SPEC sections 3, 4, 5 and 8): editing with the rules of
// src/contract/deactivation.ts (the server's own), submitting, then success (toast, back to the
// asset list) or failure (toast 'Failed to submit deactivation request'; the form keeps what was
// typed and shows what the server said of each field). A chosen file is judged at once (10 MB, PDF);
// the other fields show their errors from the first submit on, and follow every change after it.
// A refusal that names no field (the loan cannot be deactivated now, and why) is said above the
// form and gets the focus; while the request runs, the focus rests on the submit button.
// First the loan is read: one the organization may not deactivate now (not owner or servicer,
// inactive, a role transfer pending: deactivationBlocker) or cannot see shows why, not the form.
import { assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import {
  declaredInstrument,
  deactivationErrors,
  deactivationSubjectOf,
  EMPTY_DEACTIVATION_DRAFT,
  firstInvalidField,
  INSTRUMENT_FILE_FIELD,
  parseDeactivationErrors,
  withDraftValue,
  type DeactivationAccepted,
  type DeactivationDraft,
  type DeactivationErrors,
  type DeactivationField,
  type DeactivationTextField,
} from '../src/contract/deactivation';
import { isHttpError, isNotFound } from '../src/contract/http-error';
import type { LoanDetails } from '../src/contract/loans';
import { asksForAssignee, deactivationBlocker } from '../src/domain/deactivation';
import { ASSET_PAGE_TEXTS } from '../src/domain/asset-texts';
import { DEACTIVATION_TEXTS } from '../src/domain/deactivation-texts';
import { toastShow } from './toasts';

export interface DeactivationInput {
  readonly loanId: string;
  /** The organization that asks (the session's current one). */
  readonly participantId: string;
}

/** What the submit actor sends. */
export interface DeactivationSubmission {
  readonly loanId: string;
  readonly draft: DeactivationDraft;
  readonly file: File;
}

export interface DeactivationContext {
  readonly loanId: string;
  readonly participantId: string;
  readonly draft: DeactivationDraft;
  readonly file: File | null;
  /** Every broken rule of the draft and file, kept up to date. */
  readonly errors: DeactivationErrors;
  /** From the first submit on, every field's error shows. */
  readonly showAll: boolean;
  /** What the server said of fields (400, 413, 415), until the field changes. */
  readonly serverErrors: DeactivationErrors;
  /** Why the loan cannot be deactivated: from its details, or a 4xx that names no field (until the next submit). */
  readonly refusal: string | null;
}

export type DeactivationEvent =
  | { type: 'form.change'; values: Partial<Record<DeactivationTextField, string>> }
  | { type: 'form.file'; file: File | null }
  | { type: 'form.submit' };

/** The errors on screen: the server's, then the rules' (all after a submit; before it, the file's). */
export function visibleErrors(context: DeactivationContext): DeactivationErrors {
  const rules: DeactivationErrors = context.showAll
    ? context.errors
    : context.file && context.errors[INSTRUMENT_FILE_FIELD]
      ? { [INSTRUMENT_FILE_FIELD]: context.errors[INSTRUMENT_FILE_FIELD] }
      : {};
  return { ...rules, ...context.serverErrors };
}

const without = (errors: DeactivationErrors, fields: readonly DeactivationField[]): DeactivationErrors =>
  Object.fromEntries(Object.entries(errors).filter(([field]) => !fields.includes(field as DeactivationField)));

export const deactivationMachine = setup({
  types: {
    input: {} as DeactivationInput,
    context: {} as DeactivationContext,
    events: {} as DeactivationEvent,
  },
  actors: {
    // Provided by the app: GET v1 /loans/{loanId}/details.
    loadLoan: fromPromise<LoanDetails, { loanId: string }>(async () => {
      throw new Error('loadLoan is provided by the app');
    }),
    // Provided by the app: POST v1 /loans/{loanId}/deactivate as multipart.
    submitDeactivation: fromPromise<DeactivationAccepted, DeactivationSubmission>(async () => {
      throw new Error('submitDeactivation is provided by the app');
    }),
  },
  actions: {
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'form.change');
      const fields = Object.keys(event.values) as DeactivationTextField[];
      const draft = fields.reduce((next, field) => withDraftValue(next, field, event.values[field] ?? ''), context.draft);
      return {
        draft,
        errors: deactivationErrors(draft, declaredInstrument(context.file)),
        serverErrors: without(context.serverErrors, fields),
      };
    }),
    applyFile: assign(({ context, event }) => {
      assertEvent(event, 'form.file');
      return {
        file: event.file,
        errors: deactivationErrors(context.draft, declaredInstrument(event.file)),
        serverErrors: without(context.serverErrors, [INSTRUMENT_FILE_FIELD]),
      };
    }),
    showAllErrors: assign({ showAll: true }),
    /** A 4xx that names fields puts each text under its field; one that names none is the refusal. */
    keepServerErrors: assign(({ event }) => {
      const clientError = 'error' in event && isHttpError(event.error) && event.error.status < 500 ? event.error : null;
      const serverErrors = clientError ? parseDeactivationErrors(clientError.serverMessage) : {};
      const refusal = clientError && Object.keys(serverErrors).length === 0 ? clientError.serverMessage || null : null;
      return { serverErrors, refusal };
    }),
    clearRefusal: assign({ refusal: null }),
    keepBlocker: assign(({ context, event }) => ({
      refusal: 'output' in event ? deactivationBlocker(deactivationSubjectOf(event.output as LoanDetails, context.participantId)) : null,
    })),
    keepNotFound: assign({ refusal: ASSET_PAGE_TEXTS.notFoundBody }),
    /** Provided by the screen: moves the focus to a field (none: nothing to do). */
    focusField: (_, _params: { field: DeactivationField | undefined }) => undefined,
    /** Provided by the screen: the focus to the field the server named first, else to the refusal or the submit button. */
    focusFailure: (_, _params: { field: DeactivationField | undefined }) => undefined,
    /** Provided by the screen: the focus to the submit button, as the form's fields are disabled while it runs. */
    focusSubmit: () => undefined,
    // The app's toasts actor (machines/app-root.ts): the form runs as a child of the root.
    notifySubmitted: sendTo(({ system }) => system.get('toasts'), toastShow('success', DEACTIVATION_TEXTS.submitted)),
    notifyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', DEACTIVATION_TEXTS.submitFailed)),
    /** Provided by the screen: back to the asset list. */
    goToAssets: () => undefined,
  },
  guards: {
    isValid: ({ context }) => Object.keys(context.errors).length === 0,
    isBlocked: ({ context, event }) =>
      'output' in event && deactivationBlocker(deactivationSubjectOf(event.output as LoanDetails, context.participantId)) !== null,
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
  },
}).createMachine({
  id: 'deactivation',
  context: ({ input }) => ({
    loanId: input.loanId,
    participantId: input.participantId,
    draft: EMPTY_DEACTIVATION_DRAFT,
    file: null,
    errors: deactivationErrors(EMPTY_DEACTIVATION_DRAFT, null),
    showAll: false,
    serverErrors: {},
    refusal: null,
  }),
  initial: 'checking',
  states: {
    /** Reading the loan; a failure other than 404 leaves the decision to the server. */
    checking: {
      tags: ['checking'],
      invoke: {
        src: 'loadLoan',
        input: ({ context }) => ({ loanId: context.loanId }),
        onDone: [{ guard: 'isBlocked', target: 'unavailable', actions: 'keepBlocker' }, { target: 'editing' }],
        onError: [{ guard: 'isNotFound', target: 'unavailable', actions: 'keepNotFound' }, { target: 'editing' }],
      },
    },
    /** The loan cannot be deactivated by this organization now: the reason, no form. */
    unavailable: { type: 'final' },
    editing: {
      on: {
        'form.change': { actions: 'applyChange' },
        'form.file': { actions: 'applyFile' },
        'form.submit': [
          { guard: 'isValid', target: 'submitting' },
          {
            actions: [
              'showAllErrors',
              { type: 'focusField', params: ({ context }) => ({ field: firstInvalidField(visibleErrors(context)) }) },
            ],
          },
        ],
      },
    },
    submitting: {
      tags: ['busy'],
      entry: ['clearRefusal', 'focusSubmit'],
      invoke: {
        src: 'submitDeactivation',
        input: ({ context }) => ({ loanId: context.loanId, draft: context.draft, file: context.file as File }),
        onDone: { target: 'submitted' },
        onError: { target: 'failed', actions: 'keepServerErrors' },
      },
    },
    submitted: {
      type: 'final',
      entry: ['notifySubmitted', 'goToAssets'],
    },
    /** The form as typed, with the failure said; any change or a new submit leaves it. */
    failed: {
      entry: ['notifyFailed', { type: 'focusFailure', params: ({ context }) => ({ field: firstInvalidField(context.serverErrors) }) }],
      on: {
        'form.change': { target: 'editing', actions: 'applyChange' },
        'form.file': { target: 'editing', actions: 'applyFile' },
        'form.submit': [
          { guard: 'isValid', target: 'submitting' },
          {
            target: 'editing',
            actions: [
              'showAllErrors',
              { type: 'focusField', params: ({ context }) => ({ field: firstInvalidField(visibleErrors(context)) }) },
            ],
          },
        ],
      },
    },
  },
});

export type DeactivationSnapshot = SnapshotFrom<typeof deactivationMachine>;

export const selectDraft = (snapshot: DeactivationSnapshot): DeactivationDraft => snapshot.context.draft;
export const selectFile = (snapshot: DeactivationSnapshot): File | null => snapshot.context.file;
export const selectVisibleErrors = (snapshot: DeactivationSnapshot): DeactivationErrors => visibleErrors(snapshot.context);
export const selectIsSubmitting = (snapshot: DeactivationSnapshot): boolean => snapshot.hasTag('busy');
export const selectHasFailed = (snapshot: DeactivationSnapshot): boolean => snapshot.matches('failed');
export const selectIsChecking = (snapshot: DeactivationSnapshot): boolean => snapshot.hasTag('checking');
export const selectIsUnavailable = (snapshot: DeactivationSnapshot): boolean => snapshot.matches('unavailable');
/** Why the loan cannot be deactivated now: from its details, or the server's refusal that named no field. */
export const selectRefusal = (snapshot: DeactivationSnapshot): string | null => snapshot.context.refusal;
/** SPEC section 5: the assignee field shows only when the reason is not payoff. */
export const selectShowsAssignee = (snapshot: DeactivationSnapshot): boolean => asksForAssignee(snapshot.context.draft.reason);
