// CSV export of the asset tables (SPEC sections 2 and 8): the selected rows, or with none
// selected the whole filtered set; a visible progress state while the file downloads; on failure
// the toast 'Failed to download asset CSV'. One export at a time.
import { assertEvent, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { AssetListView } from '../src/domain/asset-table';

/** Where the rows come from: the asset list under its filters, or one pool. */
export type CsvScope = { readonly kind: 'assets'; readonly view: AssetListView } | { readonly kind: 'pool'; readonly poolId: string };

/** What to export: the chosen loans of the scope, or with none chosen every loan of it. */
export interface CsvExportRequest {
  readonly loanIds: readonly string[];
  readonly scope: CsvScope;
}

export interface CsvFile {
  readonly file: Blob;
  readonly fileName: string;
}

export type CsvExportEvent = { type: 'csv.export'; request: CsvExportRequest };

export const csvExportMachine = setup({
  types: { events: {} as CsvExportEvent },
  actors: {
    downloadCsv: fromPromise<CsvFile, CsvExportRequest>(async () => {
      throw new Error('downloadCsv is provided by the screen');
    }),
  },
  actions: {
    /** Provided by the screen: hands the file to the browser. */
    saveFile: (_, _params: CsvFile) => undefined,
    /** Provided by the screen: the failure toast. */
    notifyFailed: () => undefined,
  },
}).createMachine({
  id: 'csvExport',
  initial: 'idle',
  states: {
    idle: {
      on: { 'csv.export': { target: 'exporting' } },
    },
    exporting: {
      tags: ['busy'],
      invoke: {
        src: 'downloadCsv',
        input: ({ event }) => {
          assertEvent(event, 'csv.export');
          return event.request;
        },
        onDone: { target: 'idle', actions: { type: 'saveFile', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: 'notifyFailed' },
      },
    },
  },
});

export const selectIsExporting = (snapshot: SnapshotFrom<typeof csvExportMachine>): boolean => snapshot.hasTag('busy');
