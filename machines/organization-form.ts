// The organization form of /administration/organizations/- (add) and /:organizationUuid (edit)
// (SPEC sections 4, 5 and 8): the form, then the review of what will be saved and its
// confirmation, then the save; 'Something went wrong' on failure, with what the server said of
// each field under it. The rules are src/contract/organizations.ts's, the server's own. On add the
// id is made in the browser (read-only, shown) and, once saved, a dialog offers 'Add users' (the
// new organization's users/new) or 'I'll do it later' (the list). On edit the organization is read
// first, its id shown read-only; an inactive one says so and offers reactivation.
import { assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError, isNotFound } from '../src/contract/http-error';
import {
  draftOfParticipant,
  EMPTY_ORGANIZATION_DRAFT,
  firstInvalidOrganizationField,
  organizationErrors,
  parseOrganizationErrors,
  withOrganizationDraftValue,
  type OrganizationDraft,
  type OrganizationErrors,
  type OrganizationField,
  type OrganizationTextField,
} from '../src/contract/organizations';
import type { Participant } from '../src/contract/participants';
import { ORGANIZATION_TEXTS as T } from '../src/domain/administration-texts';
import { toastShow } from './toasts';

export interface OrganizationFormInput {
  /** The organization edited; null adds one. */
  readonly organizationId: string | null;
  /** The id an added organization gets: a uuid the browser made (crypto.randomUUID, given by the screen). */
  readonly newId: string;
}

/** What the save actor sends: POST with the id on add, PUT on edit. */
export interface OrganizationSave {
  readonly mode: 'add' | 'edit';
  readonly id: string;
  readonly draft: OrganizationDraft;
}

export interface OrganizationFormContext {
  readonly mode: 'add' | 'edit';
  /** The organization's id: made in the browser on add, read-only. */
  readonly id: string;
  readonly draft: OrganizationDraft;
  /** Every broken rule of the draft, kept up to date. */
  readonly errors: OrganizationErrors;
  /** From the first review on, every field's error shows. */
  readonly showAll: boolean;
  /** What the server said of fields (400), until the field changes. */
  readonly serverErrors: OrganizationErrors;
  /** A refusal that names no field (409 'code taken'), said above the form. */
  readonly refusal: string | null;
  /** The organization as stored (edit), or as saved. */
  readonly organization: Participant | null;
}

export type OrganizationFormEvent =
  | { type: 'form.change'; values: Partial<Record<OrganizationTextField, string>> }
  | { type: 'form.powerOfAttorney'; granted: boolean }
  | { type: 'form.review' }
  | { type: 'review.back' }
  | { type: 'review.confirm' }
  | { type: 'organization.reactivate' }
  | { type: 'dialog.addUsers' }
  | { type: 'dialog.later' }
  | { type: 'load.retry' };

/** The errors on screen: the server's, then the rules' (from the first review on). */
export function visibleOrganizationErrors(context: OrganizationFormContext): OrganizationErrors {
  return { ...(context.showAll ? context.errors : {}), ...context.serverErrors };
}

const without = (errors: OrganizationErrors, fields: readonly OrganizationField[]): OrganizationErrors =>
  Object.fromEntries(Object.entries(errors).filter(([field]) => !fields.includes(field as OrganizationField)));

export const organizationFormMachine = setup({
  types: {
    input: {} as OrganizationFormInput,
    context: {} as OrganizationFormContext,
    events: {} as OrganizationFormEvent,
  },
  actors: {
    // Provided by the app: GET v2 /participants/{participantId}.
    loadOrganization: fromPromise<Participant, { id: string }>(async () => {
      throw new Error('loadOrganization is provided by the app');
    }),
    // Provided by the app: POST v2 /participants, or PUT v2 /participants/{participantId}.
    saveOrganization: fromPromise<Participant, OrganizationSave>(async () => {
      throw new Error('saveOrganization is provided by the app');
    }),
    // Provided by the app: PATCH v2 /participants/{participantId} { isActive: true }.
    reactivateOrganization: fromPromise<Participant, { id: string }>(async () => {
      throw new Error('reactivateOrganization is provided by the app');
    }),
  },
  actions: {
    keepOrganization: assign(({ event }) => {
      const organization = (event as unknown as { output: Participant }).output;
      const draft = draftOfParticipant(organization);
      return { organization, draft, errors: organizationErrors(draft) };
    }),
    keepSaved: assign({ organization: ({ event }) => (event as unknown as { output: Participant }).output }),
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'form.change');
      const fields = Object.keys(event.values) as OrganizationTextField[];
      const draft = fields.reduce((next, field) => withOrganizationDraftValue(next, field, event.values[field] ?? ''), context.draft);
      return { draft, errors: organizationErrors(draft), serverErrors: without(context.serverErrors, fields), refusal: null };
    }),
    applyPowerOfAttorney: assign(({ context, event }) => {
      assertEvent(event, 'form.powerOfAttorney');
      const draft = { ...context.draft, grantedLimitedPowerOfAttorney: event.granted };
      return { draft, errors: organizationErrors(draft) };
    }),
    showAllErrors: assign({ showAll: true }),
    /** A 4xx that names fields puts each text under its field; one that names none is the refusal. */
    keepServerErrors: assign(({ event }) => {
      const clientError = 'error' in event && isHttpError(event.error) && event.error.status < 500 ? event.error : null;
      const serverErrors = clientError ? parseOrganizationErrors(clientError.serverMessage) : {};
      const refusal = clientError && Object.keys(serverErrors).length === 0 ? clientError.serverMessage || null : null;
      return { serverErrors, refusal };
    }),
    /** Provided by the screen: moves the focus to a field (none: nothing to do). */
    focusField: (_, _params: { field: OrganizationField | undefined }) => undefined,
    /** Provided by the screen: the focus to the review's heading (or, back on the form, its first field). */
    focusStep: () => undefined,
    notifyUpdated: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.updated)),
    notifyReactivated: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.reactivated)),
    notifyReactivateFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', T.reactivateFailed)),
    /** Provided by the screen: to the organization list. */
    goToList: () => undefined,
    /** Provided by the screen: to the new organization's users/new. */
    goToAddUsers: (_, _params: { id: string }) => undefined,
  },
  guards: {
    isAdd: ({ context }) => context.mode === 'add',
    isValid: ({ context }) => Object.keys(context.errors).length === 0,
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
    isInactive: ({ context }) => context.organization?.isActive === false,
  },
}).createMachine({
  id: 'organizationForm',
  context: ({ input }) => ({
    mode: input.organizationId === null ? 'add' : 'edit',
    id: input.organizationId ?? input.newId,
    draft: EMPTY_ORGANIZATION_DRAFT,
    errors: organizationErrors(EMPTY_ORGANIZATION_DRAFT),
    showAll: false,
    serverErrors: {},
    refusal: null,
    organization: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'isAdd', target: 'editing' }, { target: 'loading' }],
    },
    /** Edit: the organization as stored. */
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadOrganization',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'editing', actions: 'keepOrganization' },
        onError: [{ guard: 'isNotFound', target: 'notFound' }, { target: 'loadFailed' }],
      },
    },
    notFound: { type: 'final' },
    loadFailed: {
      on: { 'load.retry': 'starting' },
    },
    editing: {
      on: {
        'form.change': { actions: 'applyChange' },
        'form.powerOfAttorney': { actions: 'applyPowerOfAttorney' },
        'form.review': [
          { guard: 'isValid', target: 'reviewing' },
          {
            actions: [
              'showAllErrors',
              {
                type: 'focusField',
                params: ({ context }) => ({ field: firstInvalidOrganizationField(visibleOrganizationErrors(context)) }),
              },
            ],
          },
        ],
        'organization.reactivate': { guard: 'isInactive', target: 'reactivating' },
      },
    },
    /** What will be saved, read back; confirm saves it. */
    reviewing: {
      entry: 'focusStep',
      on: {
        'review.back': { target: 'editing', actions: 'focusStep' },
        'review.confirm': 'saving',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveOrganization',
        input: ({ context }) => ({ mode: context.mode, id: context.id, draft: context.draft }),
        onDone: [
          { guard: 'isAdd', target: 'offeringUsers', actions: 'keepSaved' },
          { target: 'saved', actions: ['keepSaved', 'notifyUpdated', 'goToList'] },
        ],
        onError: { target: 'failed', actions: 'keepServerErrors' },
      },
    },
    /** SPEC section 8: 'Something went wrong'; back to the form, or confirm again. */
    failed: {
      entry: 'focusStep',
      on: {
        'review.back': {
          target: 'editing',
          actions: [
            'showAllErrors',
            { type: 'focusField', params: ({ context }) => ({ field: firstInvalidOrganizationField(context.serverErrors) }) },
          ],
        },
        'review.confirm': 'saving',
      },
    },
    /** SPEC section 4: after creation, 'Add users' or 'I'll do it later'. */
    offeringUsers: {
      on: {
        'dialog.addUsers': { target: 'saved', actions: { type: 'goToAddUsers', params: ({ context }) => ({ id: context.id }) } },
        'dialog.later': { target: 'saved', actions: 'goToList' },
      },
    },
    saved: { type: 'final' },
    reactivating: {
      tags: ['busy'],
      invoke: {
        src: 'reactivateOrganization',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'editing', actions: ['keepSaved', 'notifyReactivated'] },
        onError: { target: 'editing', actions: 'notifyReactivateFailed' },
      },
    },
  },
});

export type OrganizationFormSnapshot = SnapshotFrom<typeof organizationFormMachine>;

export const selectOrganizationDraft = (snapshot: OrganizationFormSnapshot): OrganizationDraft => snapshot.context.draft;
export const selectOrganizationId = (snapshot: OrganizationFormSnapshot): string => snapshot.context.id;
export const selectOrganizationMode = (snapshot: OrganizationFormSnapshot): 'add' | 'edit' => snapshot.context.mode;
export const selectOrganizationErrors = (snapshot: OrganizationFormSnapshot): OrganizationErrors =>
  visibleOrganizationErrors(snapshot.context);
export const selectOrganizationRefusal = (snapshot: OrganizationFormSnapshot): string | null => snapshot.context.refusal;
export const selectStoredOrganization = (snapshot: OrganizationFormSnapshot): Participant | null => snapshot.context.organization;
export const selectIsBusy = (snapshot: OrganizationFormSnapshot): boolean => snapshot.hasTag('busy');
/** Which step shows: the form, the review (also while saving and after a failure), the dialog. */
export function selectFormStep(
  snapshot: OrganizationFormSnapshot,
): 'loading' | 'notFound' | 'loadFailed' | 'form' | 'review' | 'dialog' | 'done' {
  if (snapshot.matches('starting') || snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('notFound')) return 'notFound';
  if (snapshot.matches('loadFailed')) return 'loadFailed';
  if (snapshot.matches('reviewing') || snapshot.matches('saving') || snapshot.matches('failed')) return 'review';
  if (snapshot.matches('offeringUsers')) return 'dialog';
  if (snapshot.matches('saved')) return 'done';
  return 'form';
}
export const selectSaveFailed = (snapshot: OrganizationFormSnapshot): boolean => snapshot.matches('failed');
