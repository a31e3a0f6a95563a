// The walk of the servicer-lookup machine: what its model-based test
// (tests/machines/servicer-lookup-model.test.ts) sends on every path, and the statechart
// explorer's input, service answers and tours.
import type { servicerLookupMachine } from '../../../machines/servicer-lookup';
import type { ServicerLookupDraft, ServicerLookupResult } from '../../../src/contract/servicer-lookup';
import type { WalkerOptions } from '../support/model-coverage';

export const VALID: ServicerLookupDraft = {
  borrowerLastName: 'Okafor',
  street1: '123 N Main St',
  street2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};
export const RESULT: ServicerLookupResult = {
  uli: 'ULI1',
  loanType: 'MORTGAGE',
  loanNumber: '****1234',
  servicerName: 'Lakeside Servicing',
  servicerProfile: { url: null, address: { city: 'Springfield', state: 'IL' }, phoneNumber: null },
};

/** What the address autocomplete reports chosen: the street, city, state and zip of VALID. */
export const CHOSEN = {
  fullAddress: '123 N Main St, Springfield, IL 62704',
  street1: '123 N Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};

export const walk: WalkerOptions<typeof servicerLookupMachine> = {
  input: {},
  events: {
    'form.change': [{ values: VALID }, { values: { zip: '1' } }],
    'address.type': { value: '123 N' },
    'address.choose': { address: CHOSEN },
    'challenge.verified': { payload: 'solved' },
    'done: solveChallenge': { output: 'solved' },
    'error: solveChallenge': { error: new Error('not solved') },
    'done: lookup': [{ output: [RESULT] }, { output: [] }],
    'error: lookup': { error: new Error('500') },
  },
  serializeState: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.draft.zip,
      snapshot.context.draft.street1,
      snapshot.context.showAll,
      snapshot.context.payload !== null,
    ]),
};
