// The walk of the deactivation machine: what its model-based test
// (tests/web/deactivation-model.test.tsx) sends on every path, and the statechart explorer's
// input, service answers and tours.
import type { deactivationMachine, DeactivationSnapshot } from '../../../machines/deactivation';
import {
  deactivationErrors,
  declaredInstrument,
  INSTRUMENT_FILE_FIELD,
  type DeactivationAccepted,
} from '../../../src/contract/deactivation';
import { HttpError } from '../../../src/contract/http-error';
import { DEACTIVATION_TEXTS as T } from '../../../src/domain/deactivation-texts';
import { MB, pdfFile, VALID_VALUES } from '../../support/deactivation-fixtures';
import { sampleLoanDetails, sampleLoanId } from '../../support/loan-fixtures';
import { sampleOrganization } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const accepted: DeactivationAccepted = { id: '9a0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f', loanId: sampleLoanId, status: 'SUBMITTED' };
export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
export const zipRefused = new HttpError(
  400,
  JSON.stringify({ statusCode: 400, error: 'Bad Request', message: `address.zipCode: ${T.invalidZip}` }),
);
export const refused = new HttpError(
  409,
  JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'A deactivation request for this asset is already pending.' }),
);
export const goodFile = pdfFile(4096);
export const hugeFile = pdfFile(10 * MB + 1, 'huge.pdf');

/** States are told apart by where the machine is and whether the fields and the file pass the rules. */
export function serializeState(snapshot: DeactivationSnapshot): string {
  const { draft, file } = snapshot.context;
  const errors = deactivationErrors(draft, declaredInstrument(file));
  const fieldsValid = Object.keys(errors).every((field) => field === INSTRUMENT_FILE_FIELD);
  return JSON.stringify([snapshot.value, fieldsValid, errors[INSTRUMENT_FILE_FIELD] === undefined]);
}

export const organization = sampleOrganization(1, true);
export const loanNotFound = new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"Loan not found."}');
export const detailsUnavailable = new HttpError(503, '{"statusCode":503,"error":"Service Unavailable","message":"Service Unavailable"}');
/** Owned by `organization` (sampleLoanDetails' owner), but its owner role is pending a transfer. */
export const transferPending = sampleLoanDetails({ pendingOwner: true });

export const walk: WalkerOptions<typeof deactivationMachine> = {
  input: { loanId: sampleLoanId, participantId: organization.participant.id },
  serializeState,
  events: {
    'done: loadLoan': [{ output: sampleLoanDetails() }, { output: transferPending }],
    'error: loadLoan': [{ error: loanNotFound }, { error: detailsUnavailable }],
    'form.change': [{ values: VALID_VALUES }, { values: { 'address.zip': '946' } }],
    // `chosen` tells the two apart where events are compared as JSON (a File has no JSON of its own).
    'form.file': [
      { file: goodFile, chosen: 'a PDF' },
      { file: hugeFile, chosen: 'a PDF over 10 MB' },
    ],
    'done: submitDeactivation': { output: accepted },
    'error: submitDeactivation': [{ error: serverError }, { error: zipRefused }],
  },
};
