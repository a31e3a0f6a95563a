// The walk of the navigation machine: what its model-based test
// (tests/web/navigation-model.test.tsx) sends on every path, and the statechart explorer's input and
// tours.
import type { navigationMachine } from '../../../machines/navigation';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof navigationMachine> = {
  input: { collapsed: false },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  // The side navigation shows on desktop and the drawer on mobile: no viewport shows both, so
  // the side navigation is not toggled while the drawer is open.
  filterEvents: (snapshot, event) => !(event.type === 'navigation.toggle' && snapshot.matches({ drawer: 'open' })),
};
