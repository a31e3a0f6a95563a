// The walk of the role-transfer machine: what its model-based test
// (tests/web/role-transfer-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import { transferSubject, type roleTransferMachine, type RoleTransferSnapshot } from '../../../machines/role-transfer';
import { HttpError } from '../../../src/contract/http-error';
import type { RoleRequest } from '../../../src/contract/role-requests';
import { ROLE_REQUEST_ERRORS } from '../../../src/domain/role-transfer';
import { sampleLoanDetails } from '../../support/loan-fixtures';
import { sampleOrganization } from '../../support/session-fixtures';
import { delta, roleTransferDirectory as directory, transferRequestOf } from '../../support/role-transfer-directory';
import type { WalkerOptions } from '../support/model-coverage';

// Organization 1 (the signed-in one) owns the loan; the servicer is a name without an organization.
export const before = sampleLoanDetails();

export const participantId = sampleOrganization(1).participant.id;

export const subject = transferSubject(before, participantId);

export const sent: RoleRequest = transferRequestOf('SERVICER', delta);

export const refusal = new HttpError(
  409,
  JSON.stringify({ statusCode: 409, error: 'Conflict', message: ROLE_REQUEST_ERRORS.alreadyPending }),
);

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

/** States are told apart by where the machine is, what the draft holds and whether the server refused. */
export function serializeState(snapshot: RoleTransferSnapshot): string {
  if (snapshot.matches('closed')) return '"closed"';
  const { draft, refusal: refused } = snapshot.context;
  if (snapshot.matches({ open: 'editing' })) return JSON.stringify([snapshot.value, draft.role !== '', draft.receiverId !== '']);
  if (snapshot.matches({ open: 'failed' })) return JSON.stringify([snapshot.value, refused !== null]);
  return JSON.stringify(snapshot.value);
}

export const walk: WalkerOptions<typeof roleTransferMachine> = {
  serializeState,
  events: {
    'transfer.open': { subject },
    'form.role': { role: 'SERVICER' },
    'form.search': { query: 'ta' },
    'form.receiver': { receiverId: delta.id },
    'done: loadDirectory': { output: directory },
    'error: loadDirectory': { error: serverError },
    'done: sendRequest': { output: sent },
    'error: sendRequest': [{ error: refusal }, { error: serverError }],
  },
};
