// The walk of the column-resize machine: what its model-based test
// (tests/web/column-resize-model.test.tsx) sends on every path, and the statechart explorer's input and
// tours.
import type { columnResizeMachine } from '../../../machines/column-resize';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof columnResizeMachine> = {
  input: { sizes: { uli: 200 } },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'column.resizeBy': [
      { columnId: 'uli', label: 'ULI', steps: 1 },
      { columnId: 'uli', label: 'ULI', steps: -1 },
    ],
    'column.setSizes': [{ sizes: { uli: 250 } }],
  },
};
