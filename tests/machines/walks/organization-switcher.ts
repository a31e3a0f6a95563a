// The walk of the organization-switcher machine: what its model-based test
// (tests/web/organization-switcher-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import type { organizationSwitcherMachine } from '../../../machines/organization-switcher';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof organizationSwitcherMachine> = {
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    // What the search box can hold: blank, a name part, and more of it.
    'filter.change': [{ query: ' ' }, { query: 'Organization 1' }, { query: '' }],
  },
};
