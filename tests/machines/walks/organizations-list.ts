// The walk of the organizations-list machine: what its model-based test
// (tests/web/organizations-list-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import type { organizationsListMachine, OrganizationsView } from '../../../machines/organizations-list';
import type { OrganizationsPage } from '../../../src/contract/organizations';
import { sampleOrganization } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const firstView: OrganizationsView = { page: 1, limit: 10, query: '', status: 'active', sort: null };

export const linkedView: OrganizationsView = { ...firstView, query: 'harbor', status: 'all' };

export const page: OrganizationsPage = {
  participants: [2, 3, 4].map((index) => sampleOrganization(index).participant),
  totalCount: 3,
};

export const walk: WalkerOptions<typeof organizationsListMachine> = {
  input: { view: firstView },
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.searchText, snapshot.context.status]),
  events: {
    'filters.search': [{ text: 'quay' }],
    'filters.status': [{ status: 'inactive' }],
    'list.synced': [{ view: linkedView }],
  },
  filterEvents: (snapshot, event) => {
    // Only a URL naming another view reaches the machine: the link is followed once.
    if (event.type === 'list.synced') return snapshot.context.status !== linkedView.status;
    // A status the select already shows sends nothing.
    if (event.type === 'filters.status') return snapshot.context.status !== 'inactive' && snapshot.matches('idle');
    if (event.type === 'filters.search') return snapshot.context.searchText !== 'quay' || snapshot.matches('debouncing');
    return true;
  },
};
