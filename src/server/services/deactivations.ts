// A loan's deactivation (SPEC sections 3, 4, 5 and 7): the request (the instrument, the
// DEACTIVATION_REQUESTED event, the request and its processing job), then its processing by the
// job (jobs/deactivation-job.ts) or its failure for good. Each is one transaction over
// db/deactivation-repository.ts.
import { DEACTIVATING_ROLES } from '../../domain/deactivation';
import { LOAN_NOT_FOUND } from '../../domain/loan';
import { DEACTIVATION_TEXTS } from '../../domain/deactivation-texts';
import { type AuditActor, appendAudit, auditedLoanStatus, SYSTEM_ACTOR } from '../db/audit-repository';
import type { Database, Transaction } from '../db/database';
import * as repository from '../db/deactivation-repository';
import type { NewDeactivationRequest } from '../db/deactivation-repository';
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
  actor: AuditActor = { userId: request.userId, email: null, clientAddress: null, actingParticipantId: request.participantId },
): Promise<{ readonly requestId: string; readonly documentId: string }> {
  return writeTransaction(db, async (tx) => {
    await lockLoan(tx, request.loanId);
    const loan = await repository.findDeactivationCheck(tx, request.loanId, request.participantId);
    if (!loan || loan.roles.length === 0) throw new NotFoundError(LOAN_NOT_FOUND);
    // SPEC section 6's rule for this call: the organization holds the OWNER or SERVICER role.
    if (!loan.roles.some((role) => (DEACTIVATING_ROLES as readonly string[]).includes(role)))
      throw new RuleViolationError(DEACTIVATION_TEXTS.notOwnerOrServicer);
    if (loan.status !== 'Active' || loan.deactivated) throw new ConflictError(DEACTIVATION_TEXTS.alreadyInactive);
    if (loan.pending) throw new ConflictError(DEACTIVATION_TEXTS.alreadyRequested);
    if (loan.transferPending) throw new ConflictError(DEACTIVATION_TEXTS.transferPending);
    const created = await repository.insertDeactivationRequest(tx, request);
    await enqueue(tx, created.requestId);
    const { instrument, fields } = request;
    await appendAudit(tx, actor, {
      participantId: request.participantId,
      loanId: request.loanId,
      action: 'document.added',
      targetType: 'document',
      targetId: created.documentId,
      before: null,
      after: { fileName: instrument.fileName, sizeBytes: instrument.content.length, sha256: instrument.hash },
    });
    await appendAudit(tx, actor, {
      participantId: request.participantId,
      loanId: request.loanId,
      action: 'deactivation.requested',
      targetType: 'deactivation-request',
      targetId: created.requestId,
      before: { loan: { status: loan.status, deactivated: loan.deactivated } },
      after: {
        request: { status: 'SUBMITTED', reason: fields.reason, effectiveDate: fields.effectiveDate, documentId: created.documentId },
        event: { state: 'Requested' },
      },
    });
    return created;
  });
}

export type ProcessOutcome = 'completed' | 'alreadyCompleted' | 'missing';

/**
 * Processes a recorded request in one transaction: the loan becomes Inactive and deactivated, its
 * waiting request event is confirmed and a DEACTIVATION event added, the request is COMPLETED, and
 * the requesting organization gets a message on the loan. Idempotent: a completed request (or one
 * whose loan is gone) changes nothing.
 */
export async function processDeactivation(db: Database, requestId: string): Promise<ProcessOutcome> {
  return writeTransaction(db, async (tx) => {
    const request = await repository.lockRecordedRequest(tx, requestId);
    if (!request) return 'missing';
    if (request.status === 'COMPLETED') return 'alreadyCompleted';
    // The loan locked, then the requester's message (its message_counts row), then the loan's
    // update (the asset list's counts): the order every write takes (write-transaction.ts).
    const uli = await repository.findLoanUli(tx, request.loanId, { lock: true });
    if (uli === undefined) return 'missing';
    const before = await auditedLoanStatus(tx, request.loanId);
    await repository.tellRequester(tx, request, DEACTIVATION_TEXTS.completeMessage(uli));
    await repository.markLoanDeactivated(tx, request.loanId);
    await repository.settleRequestedEvent(tx, request.loanId, 'Confirmed');
    await repository.insertDeactivationEvent(tx, request);
    await repository.setRequestStatus(tx, requestId, 'COMPLETED');
    await appendAudit(tx, SYSTEM_ACTOR, {
      participantId: request.participantId,
      loanId: request.loanId,
      action: 'deactivation.completed',
      targetType: 'deactivation-request',
      targetId: requestId,
      before: { loan: before, request: { status: request.status } },
      after: { loan: await auditedLoanStatus(tx, request.loanId), request: { status: 'COMPLETED' }, event: { state: 'Confirmed' } },
    });
    return 'completed';
  });
}

export type FailOutcome = 'failed' | 'notSubmitted' | 'missing';

/**
 * A request whose processing failed for good (the job's last retry): FAILED, its waiting event
 * Rejected, and the requesting organization told, in one transaction. Without this the request
 * stayed SUBMITTED and every new request on the loan answered 409 'already pending' forever.
 */
export async function failDeactivation(db: Database, requestId: string): Promise<FailOutcome> {
  return writeTransaction(db, async (tx) => {
    const request = await repository.lockRecordedRequest(tx, requestId);
    if (!request) return 'missing';
    if (request.status !== 'SUBMITTED') return 'notSubmitted';
    await repository.setRequestStatus(tx, requestId, 'FAILED');
    await repository.settleRequestedEvent(tx, request.loanId, 'Rejected');
    const uli = await repository.findLoanUli(tx, request.loanId, { lock: false });
    await repository.tellRequester(tx, request, DEACTIVATION_TEXTS.failedMessage(uli ?? ''));
    await appendAudit(tx, SYSTEM_ACTOR, {
      participantId: request.participantId,
      loanId: request.loanId,
      action: 'deactivation.failed',
      targetType: 'deactivation-request',
      targetId: requestId,
      before: { request: { status: 'SUBMITTED' } },
      after: { request: { status: 'FAILED' }, event: { state: 'Rejected' } },
    });
    return 'failed';
  });
}
