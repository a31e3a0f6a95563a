// The walk of the asset-table machine: what its model-based test
// (tests/web/asset-table-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import type { assetTableMachine } from '../../../machines/asset-table';
import { DEFAULT_ASSET_LIST_VIEW, type AssetListView } from '../../../src/domain/asset-table';
import { FILTERABLE_ROLES } from '../../../src/domain/loan';
import type { WalkerOptions } from '../support/model-coverage';

export const linkedView: AssetListView = { ...DEFAULT_ASSET_LIST_VIEW, page: 2, query: 'abc' };

export const walk: WalkerOptions<typeof assetTableMachine> = {
  input: { view: DEFAULT_ASSET_LIST_VIEW },
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.searchText]),
  events: {
    // A search, and one that trims to the current (empty) search: nothing asked.
    'filters.search': [{ text: 'smith' }, { text: ' ' }],
    'filters.roles': [{ roles: FILTERABLE_ROLES }],
    'filters.date': [{ filter: 'today' }],
    // Back or a link to a view with another search.
    'list.synced': [{ view: linkedView }],
  },
  filterEvents: (snapshot, event) => {
    // Only a URL naming another view reaches the machine.
    if (event.type === 'list.synced') return snapshot.context.searchText !== linkedView.query;
    // The roles and date are walked from the first view (each one a change of the list's filters).
    if (event.type === 'filters.roles' || event.type === 'filters.date') return snapshot.context.searchText === '';
    return true;
  },
};
