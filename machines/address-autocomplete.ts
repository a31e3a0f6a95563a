// The address autocomplete of the servicer lookup's street field (SPEC sections 2 and 7): what is
// typed waits out the debounce (each keystroke starts it over), then one request for suggestions
// runs, cancelled (its signal aborted) when more is typed; its answer is listed, or says there is
// no such address, or that suggestions are unavailable (the address can still be typed in full).
// Choosing a suggestion hands it to the parent (servicer-lookup fills street, city, state, zip).
import { assertEvent, assign, fromPromise, sendParent, setup, type SnapshotFrom } from 'xstate';
import { ADDRESS_LOOKUP_MIN_CHARACTERS, addressSearchKey, type AddressSuggestion } from '../src/contract/address-lookup';

export interface AddressAutocompleteInput {
  /** The street already in the form (nothing is asked for it until it is typed). */
  readonly query?: string;
}

export interface AddressAutocompleteContext {
  readonly query: string;
  readonly suggestions: readonly AddressSuggestion[];
  /** The suggestion last chosen (the combobox's value). */
  readonly chosen: AddressSuggestion | null;
}

export type AddressAutocompleteEvent =
  { type: 'query.change'; value: string } | { type: 'suggestion.choose'; suggestion: AddressSuggestion } | { type: 'suggestions.dismiss' };

/** What the parent receives when a suggestion is chosen. */
export interface AddressChosenEvent {
  readonly type: 'address.choose';
  readonly address: AddressSuggestion;
}

/** Enough typed to ask (fewer characters would match nearly every address). */
/** The parent's reportChosen: the chosen address sent to it as an AddressChosenEvent. */
export const reportChosenToParent = sendParent<
  AddressAutocompleteContext,
  AddressAutocompleteEvent,
  unknown,
  AddressChosenEvent,
  AddressAutocompleteEvent
>(({ event }) => {
  assertEvent(event, 'suggestion.choose');
  return { type: 'address.choose', address: event.suggestion };
});

export const isSearchableQuery = (query: string): boolean => addressSearchKey(query).length >= ADDRESS_LOOKUP_MIN_CHARACTERS;

export const addressAutocompleteMachine = setup({
  types: {
    input: {} as AddressAutocompleteInput,
    context: {} as AddressAutocompleteContext,
    events: {} as AddressAutocompleteEvent,
  },
  actors: {
    // Provided by the app: GET partialAddress from the address-lookup service (ours or ADDRESS_LOOKUP_URL's).
    fetchSuggestions: fromPromise<AddressSuggestion[], { query: string }>(async () => {
      throw new Error('fetchSuggestions is provided by the app');
    }),
  },
  delays: { debounce: 300 },
  actions: {
    keepQuery: assign(({ event }) => {
      assertEvent(event, 'query.change');
      return { query: event.value, chosen: null };
    }),
    keepSuggestions: assign({ suggestions: ({ event }) => ('output' in event ? (event.output as AddressSuggestion[]) : []) }),
    clearSuggestions: assign({ suggestions: [] }),
    keepChosen: assign(({ event }) => {
      assertEvent(event, 'suggestion.choose');
      return { chosen: event.suggestion, query: event.suggestion.street1, suggestions: [] };
    }),
    /** Provided by the parent (reportChosenToParent): it fills the form from the chosen address. */
    reportChosen: () => undefined,
  },
  guards: {
    isSearchable: ({ event }) => event.type === 'query.change' && isSearchableQuery(event.value),
    hasSuggestions: ({ event }) => 'output' in event && (event.output as AddressSuggestion[]).length > 0,
  },
}).createMachine({
  id: 'addressAutocomplete',
  context: ({ input }) => ({ query: input.query ?? '', suggestions: [], chosen: null }),
  initial: 'idle',
  on: {
    'query.change': [
      // Each keystroke starts the wait over (and leaves a request in flight: its signal aborts).
      { guard: 'isSearchable', target: '.debouncing', reenter: true, actions: 'keepQuery' },
      { target: '.idle', actions: ['keepQuery', 'clearSuggestions'] },
    ],
    'suggestion.choose': { target: '.idle', actions: ['keepChosen', 'reportChosen'] },
  },
  states: {
    /** Nothing to suggest: too little typed, or a suggestion chosen. */
    idle: {},
    /** Waiting for typing to pause; the suggestions of the previous query stay listed meanwhile. */
    debouncing: {
      after: { debounce: 'loading' },
    },
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'fetchSuggestions',
        input: ({ context }) => ({ query: context.query.trim() }),
        onDone: [
          { guard: 'hasSuggestions', target: 'listed', actions: 'keepSuggestions' },
          { target: 'empty', actions: 'clearSuggestions' },
        ],
        onError: { target: 'failed', actions: 'clearSuggestions' },
      },
    },
    listed: {
      on: { 'suggestions.dismiss': { target: 'idle', actions: 'clearSuggestions' } },
    },
    /** No address starts so: the user types the rest. */
    empty: {
      on: { 'suggestions.dismiss': 'idle' },
    },
    /** The service did not answer: the user types the address in full. */
    failed: {
      on: { 'suggestions.dismiss': 'idle' },
    },
  },
});

export type AddressAutocompleteSnapshot = SnapshotFrom<typeof addressAutocompleteMachine>;

export const selectSuggestions = (snapshot: AddressAutocompleteSnapshot): readonly AddressSuggestion[] => snapshot.context.suggestions;
export const selectChosen = (snapshot: AddressAutocompleteSnapshot): AddressSuggestion | null => snapshot.context.chosen;
export const selectIsLoading = (snapshot: AddressAutocompleteSnapshot): boolean => snapshot.hasTag('loading');
export const selectIsEmpty = (snapshot: AddressAutocompleteSnapshot): boolean => snapshot.matches('empty');
export const selectHasFailed = (snapshot: AddressAutocompleteSnapshot): boolean => snapshot.matches('failed');
