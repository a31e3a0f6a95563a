// The walk of the column-visibility machine: what its model-based test
// (tests/web/column-visibility-model.test.tsx) sends on every path, and the statechart explorer's input and
// tours.
import type { columnVisibilityMachine } from '../../../machines/column-visibility';
import { DEFAULT_HIDDEN_ASSET_COLUMNS, HIDEABLE_ASSET_COLUMNS } from '../../../src/domain/asset-columns';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof columnVisibilityMachine> = {
  input: { hideable: HIDEABLE_ASSET_COLUMNS, defaultHidden: DEFAULT_HIDDEN_ASSET_COLUMNS, stored: null },
  serializeState: (snapshot) => JSON.stringify(snapshot.context.hidden),
  events: { 'columns.toggle': [{ columnId: 'tradeDate' }, { columnId: 'status' }] },
};
