// The walk of the csv-export machine: what its model-based test
// (tests/web/csv-export-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { csvExportMachine } from '../../../machines/csv-export';
import { HttpError } from '../../../src/contract/http-error';
import { DEFAULT_ASSET_LIST_VIEW } from '../../../src/domain/asset-table';
import { loanIdOf } from '../../support/loan-list-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const csv = new Blob(['ULI,Type\r\nULI000000,Mortgage\r\n'], { type: 'text/csv' });

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const scope = { kind: 'assets', view: DEFAULT_ASSET_LIST_VIEW } as const;

export const walk: WalkerOptions<typeof csvExportMachine> = {
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    // With no row selected: the whole filtered set; with one: that row.
    'csv.export': [{ request: { loanIds: [], scope } }, { request: { loanIds: [loanIdOf(0)], scope } }],
    'done: downloadCsv': { output: { file: csv, fileName: 'assets.csv' } },
    'error: downloadCsv': { error: serverError },
  },
};
