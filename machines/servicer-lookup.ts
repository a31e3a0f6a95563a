// The public servicer lookup (SPEC sections 2, 5 and 8): one actor behind /servicer-lookup and
// /servicer-lookup/results. The form holds the draft with SPEC 5's rules (the server's own,
// src/contract/servicer-lookup.ts); a valid submit gets an ALTCHA proof of work (the widget's
// solution, or the widget asked to solve now), shows the results page with the query in its URL,
// asks the server, and shows the servicers found or 'No matches found' (an empty answer or an
// error alike). Opened at the results URL, it asks only when last name, street, city, state and
// zip are all there. The widget is reset after each submit: a solution is spent by one lookup.
// The street field's autocomplete is a child (address-autocomplete) while the form shows: what is
// typed there goes to it, and the address it reports chosen fills street, city, state and zip.
import { assertEvent, assign, fromPromise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { addressAutocompleteMachine, reportChosenToParent, type AddressChosenEvent } from './address-autocomplete';
import {
  EMPTY_SERVICER_LOOKUP_DRAFT,
  SERVICER_LOOKUP_FIELDS,
  servicerLookupErrors,
  type ServicerLookupDraft,
  type ServicerLookupErrors,
  type ServicerLookupField,
  type ServicerLookupResult,
} from '../src/contract/servicer-lookup';

export interface ServicerLookupInput {
  /** Opened at the results URL: its query (absent on the form). */
  readonly results?: ServicerLookupDraft;
}

export interface ServicerLookupContext {
  readonly draft: ServicerLookupDraft;
  readonly errors: ServicerLookupErrors;
  /** From the first submit on, every field's error shows. */
  readonly showAll: boolean;
  /** The widget's solution, until a lookup spends it. */
  readonly payload: string | null;
  readonly results: readonly ServicerLookupResult[];
}

export type ServicerLookupEvent =
  | { type: 'form.change'; values: Partial<ServicerLookupDraft> }
  /** The street typed in its autocomplete field. */
  | { type: 'address.type'; value: string }
  | AddressChosenEvent
  | { type: 'form.submit' }
  | { type: 'challenge.verified'; payload: string }
  | { type: 'challenge.reset' }
  | { type: 'lookup.restart' };

/** Last name, street, city, state and zip all present: the results page may ask (SPEC section 2). */
export const isCompleteQuery = (draft: ServicerLookupDraft): boolean =>
  (['borrowerLastName', 'street1', 'city', 'state', 'zip'] as const).every((field) => draft[field].trim() !== '');

export const firstInvalidField = (errors: ServicerLookupErrors): ServicerLookupField | undefined =>
  SERVICER_LOOKUP_FIELDS.find((field) => errors[field] !== undefined);

const formEvents = {
  'form.change': { target: '#servicerLookup.form', actions: 'applyChange' },
  'challenge.verified': { actions: 'keepPayload' },
  'challenge.reset': { actions: 'dropPayload' },
  'form.submit': [
    { guard: 'isValid', target: '#servicerLookup.verifying' },
    {
      target: '#servicerLookup.form',
      actions: [
        'showAllErrors',
        { type: 'focusField', params: ({ context }: { context: ServicerLookupContext }) => ({ field: firstInvalidField(context.errors) }) },
      ],
    },
  ],
} as const;

/** The form shown again (the browser's back) while the results are kept: typing there opens it. */
const streetEvents = { 'address.type': { target: '#servicerLookup.form', actions: 'applyStreet' } } as const;

export const servicerLookupMachine = setup({
  types: {
    input: {} as ServicerLookupInput,
    context: {} as ServicerLookupContext,
    events: {} as ServicerLookupEvent,
  },
  actors: {
    addressAutocomplete: addressAutocompleteMachine.provide({ actions: { reportChosen: reportChosenToParent } }),
    // Provided by the screen: the widget's solution (the one it has, or one it solves now).
    solveChallenge: fromPromise<string, { payload: string | null }>(async () => {
      throw new Error('solveChallenge is provided by the app');
    }),
    // Provided by the app: GET /service-dart/external/api/v1/servicer_lookup.
    lookup: fromPromise<ServicerLookupResult[], { draft: ServicerLookupDraft; payload: string }>(async () => {
      throw new Error('lookup is provided by the app');
    }),
  },
  actions: {
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'form.change');
      const draft = { ...context.draft, ...event.values };
      return { draft, errors: servicerLookupErrors(draft) };
    }),
    applyStreet: assign(({ context, event }) => {
      assertEvent(event, 'address.type');
      const draft = { ...context.draft, street1: event.value };
      return { draft, errors: servicerLookupErrors(draft) };
    }),
    applyAddress: assign(({ context, event }) => {
      assertEvent(event, 'address.choose');
      const { street1, city, state, zip } = event.address;
      const draft = { ...context.draft, street1, city, state, zip };
      return { draft, errors: servicerLookupErrors(draft) };
    }),
    forwardStreet: sendTo('addressAutocomplete', ({ event }) => {
      assertEvent(event, 'address.type');
      return { type: 'query.change' as const, value: event.value };
    }),
    keepPayload: assign(({ event }) => {
      assertEvent(event, 'challenge.verified');
      return { payload: event.payload };
    }),
    dropPayload: assign({ payload: null }),
    showAllErrors: assign({ showAll: true }),
    keepResults: assign(({ event }) => ({ results: 'output' in event ? (event.output as ServicerLookupResult[]) : [] })),
    clearResults: assign({ results: [] }),
    restart: assign({ showAll: false, results: [] }),
    /** Provided by the screen: the focus to a field (none: nothing to do). */
    focusField: (_, _params: { field: ServicerLookupField | undefined }) => undefined,
    /** Provided by the screen: a solution is spent by one lookup; the widget starts over. */
    resetChallenge: () => undefined,
    /** Provided by the screen: the results page with the query in its URL. */
    showResults: (_, _params: { draft: ServicerLookupDraft }) => undefined,
  },
  guards: {
    isValid: ({ context }) => Object.keys(context.errors).length === 0,
    opensResults: ({ context }) => context.showAll,
    opensCompleteResults: ({ context }) => context.showAll && isCompleteQuery(context.draft),
    hasResults: ({ event }) => 'output' in event && (event.output as ServicerLookupResult[]).length > 0,
  },
}).createMachine({
  id: 'servicerLookup',
  context: ({ input }) => {
    const draft = input.results ?? EMPTY_SERVICER_LOOKUP_DRAFT;
    return { draft, errors: servicerLookupErrors(draft), showAll: input.results !== undefined, payload: null, results: [] };
  },
  initial: 'opening',
  states: {
    /** The form, or the results page opened at its URL (asking only with every field it needs). */
    opening: {
      always: [{ guard: 'opensCompleteResults', target: 'verifying' }, { guard: 'opensResults', target: 'empty' }, { target: 'form' }],
    },
    form: {
      invoke: { id: 'addressAutocomplete', src: 'addressAutocomplete', input: ({ context }) => ({ query: context.draft.street1 }) },
      on: {
        ...formEvents,
        'address.type': { actions: ['applyStreet', 'forwardStreet'] },
        'address.choose': { actions: 'applyAddress' },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        src: 'solveChallenge',
        input: ({ context }) => ({ payload: context.payload }),
        onDone: {
          target: 'searching',
          actions: [assign({ payload: ({ event }) => event.output }), 'resetChallenge'],
        },
        onError: { target: 'empty', actions: ['dropPayload', 'clearResults'] },
      },
    },
    searching: {
      tags: ['busy'],
      entry: [{ type: 'showResults', params: ({ context }) => ({ draft: context.draft }) }],
      invoke: {
        src: 'lookup',
        input: ({ context }) => ({ draft: context.draft, payload: context.payload ?? '' }),
        onDone: [
          { guard: 'hasResults', target: 'found', actions: ['keepResults', 'dropPayload'] },
          { target: 'empty', actions: ['clearResults', 'dropPayload'] },
        ],
        // SPEC section 8: an error reads like an empty result.
        onError: { target: 'empty', actions: ['clearResults', 'dropPayload'] },
      },
    },
    found: { on: { ...formEvents, ...streetEvents, 'lookup.restart': { target: 'form', actions: 'restart' } } },
    /** 'No matches found': an empty answer, an error, or a results URL without every field. */
    empty: { on: { ...formEvents, ...streetEvents, 'lookup.restart': { target: 'form', actions: 'restart' } } },
  },
});

export type ServicerLookupSnapshot = SnapshotFrom<typeof servicerLookupMachine>;

export const selectDraft = (snapshot: ServicerLookupSnapshot): ServicerLookupDraft => snapshot.context.draft;
export const selectVisibleErrors = (snapshot: ServicerLookupSnapshot): ServicerLookupErrors =>
  snapshot.context.showAll && snapshot.matches('form') ? snapshot.context.errors : {};
export const selectIsBusy = (snapshot: ServicerLookupSnapshot): boolean => snapshot.hasTag('busy');
export const selectIsVerifying = (snapshot: ServicerLookupSnapshot): boolean => snapshot.matches('verifying');
export const selectResults = (snapshot: ServicerLookupSnapshot): readonly ServicerLookupResult[] => snapshot.context.results;
export const selectIsFound = (snapshot: ServicerLookupSnapshot): boolean => snapshot.matches('found');
export const selectIsEmpty = (snapshot: ServicerLookupSnapshot): boolean => snapshot.matches('empty');
export const selectIsVerified = (snapshot: ServicerLookupSnapshot): boolean => snapshot.context.payload !== null;

export type AddressAutocompleteRef = ActorRefFrom<typeof addressAutocompleteMachine>;
/** The street field's autocomplete while the form shows. */
export const selectAddressAutocomplete = (snapshot: ServicerLookupSnapshot): AddressAutocompleteRef | undefined =>
  snapshot.children.addressAutocomplete as AddressAutocompleteRef | undefined;
