// The walk of the asset-count machine: what its model-based test
// (tests/web/asset-count-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import { HttpError } from '../../../src/contract/http-error';
import type { assetCountMachine } from '../../../machines/asset-count';
import type { WalkerOptions } from '../support/model-coverage';

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const walk: WalkerOptions<typeof assetCountMachine> = {
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'done: countAssets': { output: 1234 },
    'error: countAssets': { error: serverError },
  },
};
