// The walk of the multi-select machine: what its model-based test
// (tests/web/multi-select-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import type { multiSelectMachine } from '../../../machines/multi-select';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof multiSelectMachine> = {
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context]),
  events: { 'multiSelect.search': [{ query: 'serv' }, { query: 'zzz' }] },
  // Two searches deep is enough: every state and transition is reached.
  filterEvents: (snapshot, event) =>
    event.type !== 'multiSelect.search' || snapshot.context.appliedQuery === '' || snapshot.matches('idle'),
};
