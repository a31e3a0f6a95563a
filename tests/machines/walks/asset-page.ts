// The walk of the asset-page machine: what its model-based test
// (tests/web/asset-page-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import { HttpError } from '../../../src/contract/http-error';
import type { assetPageMachine } from '../../../machines/asset-page';
import { sampleEvents, sampleLoanDetails, sampleLoanId } from '../../support/loan-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const details = sampleLoanDetails({ pendingOwner: true });

export const notFound = new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"Loan not found"}');

export const badRequest = new HttpError(400, '{"statusCode":400,"error":"Bad Request","message":"params/id must be a uuid"}');

export const gone = new HttpError(410, '{"statusCode":410,"error":"Gone","message":"no longer"}');

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const walk: WalkerOptions<typeof assetPageMachine> = {
  input: { loanId: sampleLoanId },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'done: loadAsset': { output: { details, events: sampleEvents } },
    'error: loadAsset': [{ error: notFound }, { error: badRequest }, { error: gone }, { error: serverError }],
  },
};
