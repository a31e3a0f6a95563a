// Requesting a loan's deactivation (SPEC sections 3, 5 and 7): the instrument, the
// DEACTIVATION_REQUESTED event, the request and its processing job, in one transaction over
// db/deactivation-repository.ts; the job (jobs/deactivation-job.ts) then deactivates the loan.
import { DEACTIVATING_ROLES } from '../../domain/deactivation';
import { LOAN_NOT_FOUND } from '../../domain/loan';
import { DEACTIVATION_TEXTS } from '../../domain/texts';
import type { Database, Transaction } from '../db/database';
import { findDeactivationCheck, insertDeactivationRequest, type NewDeactivationRequest } from '../db/deactivation-repository';
import { lockLoan } from '../db/role-request-repository';
import { writeTransaction } from '../db/write-transaction';
import { ConflictError, NotFoundError, RuleViolationError } from '../domain-errors';

/**
 * Records a deactivation request and, in the same transaction, queues its processing through
 * `enqueue` (given the transaction): all of it happens, or none. The loan row is locked first, so
 * two requests for one loan are decided one after the other (the second sees the first: a
 * conflict). A foreign organization learns nothing it could not learn from the details call.
 */
export async function requestDeactivation(
  db: Database,
  request: NewDeactivationRequest,
  enqueue: (tx: Transaction, requestId: string) => Promise<unknown>,
): Promise<{ readonly requestId: string; readonly documentId: string }> {
  return writeTransaction(db, async (tx) => {
    await lockLoan(tx, request.loanId);
    const loan = await findDeactivationCheck(tx, request.loanId, request.participantId);
    if (!loan || loan.roles.length === 0) throw new NotFoundError(LOAN_NOT_FOUND);
    // SPEC section 6's rule for this call: the organization holds the OWNER or SERVICER role.
    if (!loan.roles.some((role) => (DEACTIVATING_ROLES as readonly string[]).includes(role)))
      throw new RuleViolationError(DEACTIVATION_TEXTS.notOwnerOrServicer);
    if (loan.status !== 'Active' || loan.deactivated) throw new ConflictError(DEACTIVATION_TEXTS.alreadyInactive);
    if (loan.pending) throw new ConflictError(DEACTIVATION_TEXTS.alreadyRequested);
    if (loan.transferPending) throw new ConflictError(DEACTIVATION_TEXTS.transferPending);
    const created = await insertDeactivationRequest(tx, request);
    await enqueue(tx, created.requestId);
    return created;
  });
}
