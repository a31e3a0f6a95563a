// The walk of the address-autocomplete machine: what its model-based test
// (tests/machines/address-autocomplete-model.test.ts) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { addressAutocompleteMachine } from '../../../machines/address-autocomplete';
import type { AddressSuggestion } from '../../../src/contract/address-lookup';
import type { WalkerOptions } from '../support/model-coverage';

export const MAPLE: AddressSuggestion = {
  fullAddress: '1542 Maple Ave, Albany, NY 12203',
  street1: '1542 Maple Ave',
  city: 'Albany',
  state: 'NY',
  zip: '12203',
};

export const walk: WalkerOptions<typeof addressAutocompleteMachine> = {
  input: {},
  events: {
    'query.change': [{ value: '1542 Ma' }, { value: '15' }],
    'suggestion.choose': { suggestion: MAPLE },
    'done: fetchSuggestions': [{ output: [MAPLE] }, { output: [] }],
    'error: fetchSuggestions': { error: new Error('503') },
  },
  // A suggestion is chosen only from a list the field shows.
  filterEvents: (snapshot, event) => event.type !== 'suggestion.choose' || snapshot.context.suggestions.length > 0,
  serializeState: (snapshot) =>
    JSON.stringify([snapshot.value, snapshot.context.query, snapshot.context.suggestions.length, snapshot.context.chosen !== null]),
};
