// Role transfers (our addition to SPEC section 7): asking another organization to take over a role
// on a loan, and the receiver's answer to the actionable message that asks it. Each is one
// transaction over db/role-request-repository.ts; a refusal is a domain error (domain-errors.ts).
import { MESSAGE_ERRORS } from '../../domain/messages';
import { ROLE_REQUEST_ERRORS, transferableRoles } from '../../domain/role-transfer';
import { type AuditActor, appendAudit, auditedParty } from '../db/audit-repository';
import type { Database, Transaction } from '../db/database';
import { findMessage } from '../db/message-repository';
import type { Message } from '../../contract/messages';
import * as repository from '../db/role-request-repository';
import type { NewRoleRequest, RoleRequestRow } from '../db/role-request-repository';
import { writeTransaction } from '../db/write-transaction';
import { ConflictError, NotFoundError, RuleViolationError } from '../domain-errors';
import { LOAN_NOT_FOUND } from '../../domain/loan';

/**
 * Records a transfer request, all of it or nothing (the role PENDING, a Requested event, the
 * receiver's actionable message). The loan row is locked first, so two requests for one loan are
 * decided one after the other; the unique index on open requests backs the PENDING check up (its
 * violation is the same conflict).
 */
export async function requestRoleTransfer(
  db: Database,
  request: NewRoleRequest,
  actor: AuditActor = { userId: request.userId, email: null, clientAddress: null, actingParticipantId: request.participantId },
): Promise<RoleRequestRow> {
  try {
    return await writeTransaction(db, async (tx) => {
      await repository.lockLoan(tx, request.loanId);
      const loan = await repository.findTransferCheck(tx, request);
      // A loan the organization may not see is not found, exactly like a missing one.
      if (!loan || !loan.visible) throw new NotFoundError(LOAN_NOT_FOUND);
      if (loan.status !== 'Active' || loan.deactivated) throw new ConflictError(ROLE_REQUEST_ERRORS.deactivated);
      if (loan.deactivationPending) throw new ConflictError(ROLE_REQUEST_ERRORS.deactivationPending);
      const party = loan.parties.find((candidate) => candidate.role === request.role);
      if (!party) throw new RuleViolationError(ROLE_REQUEST_ERRORS.noParty);
      if (!transferableRoles(loan.parties, request.participantId).includes(request.role))
        throw new RuleViolationError(ROLE_REQUEST_ERRORS.notAllowed);
      if (party.state === 'PENDING') throw new ConflictError(ROLE_REQUEST_ERRORS.alreadyPending);
      const receiver = loan.receiver;
      if (!receiver) throw new RuleViolationError(ROLE_REQUEST_ERRORS.receiverUnknown);
      if (party.participantId === receiver.id) throw new RuleViolationError(ROLE_REQUEST_ERRORS.receiverHoldsRole);
      const before = await auditedParty(tx, request.loanId, request.role);
      const created = await repository.insertTransferRequest(tx, request, { uli: loan.uli, receiver, partyStateBefore: party.state });
      await appendAudit(tx, actor, {
        participantId: request.participantId,
        loanId: request.loanId,
        action: 'role-transfer.requested',
        targetType: 'role-request',
        targetId: created.id,
        before: { party: before },
        after: {
          party: await auditedParty(tx, request.loanId, request.role),
          request: { state: 'PENDING', requester: { id: request.participantId, name: request.participantName }, receiver },
          event: { state: 'Requested', role: request.role },
        },
      });
      return created;
    });
  } catch (error) {
    if (repository.isOpenRequestConflict(error)) throw new ConflictError(ROLE_REQUEST_ERRORS.alreadyPending);
    throw error;
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface MessageAnswer {
  /** The organization that answers: the message must be its own. */
  readonly participantId: string;
  readonly userId: string | null;
  readonly messageId: string;
  /** True confirms, false rejects. */
  readonly response: boolean;
}

/**
 * The receiver's answer to an actionable message, in one transaction: the role CONFIRMED to the
 * receiver or REJECTED, the event, the request closed, the message read with its answer, the
 * requester told, the loan updated (the asset list index follows once, at the end). A confirmed
 * transfer can take away what other open requests on the loan were asked by (an owner's request
 * for a new servicer once the ownership has moved on): those are canceled. Answers the message as
 * it now is. Refusals: an unknown message or another organization's (not found), one that takes no
 * response (a rule), one answered already or whose request is no longer open (a conflict).
 */
export async function answerMessage(
  db: Database,
  answer: MessageAnswer,
  actor: AuditActor = { userId: answer.userId, email: null, clientAddress: null, actingParticipantId: answer.participantId },
): Promise<Message> {
  if (!UUID_PATTERN.test(answer.messageId)) throw new NotFoundError(MESSAGE_ERRORS.notFound);
  const messageId = answer.messageId.toLowerCase();
  await writeTransaction(db, async (tx) => {
    await repository.deferLoanList(tx);
    const message = await repository.lockMessageForAnswer(tx, answer.participantId, messageId);
    if (!message) throw new NotFoundError(MESSAGE_ERRORS.notFound);
    if (!message.isActionable) throw new RuleViolationError(MESSAGE_ERRORS.notActionable);
    if (message.response !== null) throw new ConflictError(MESSAGE_ERRORS.alreadyAnswered);
    const request = await repository.lockOpenRequestOfMessage(tx, messageId);
    if (!request) throw new ConflictError(MESSAGE_ERRORS.alreadyAnswered);
    const confirmed = answer.response;
    const canceled = confirmed ? await requestsLosingTheirAsker(tx, request) : [];
    await repository.lockMessageCounts(tx, [
      ...new Set([request.receiverId, request.requesterId, ...canceled.map((open) => open.receiverId)]),
    ]);
    const parties = new Map<string, unknown>();
    for (const role of new Set([request.role, ...canceled.map((open) => open.role)]))
      parties.set(role, await auditedParty(tx, request.loanId, role));
    await repository.recordAnswer(tx, request, messageId, confirmed);
    for (const open of canceled) await repository.cancelRequest(tx, open, request.uli);
    await repository.refreshLoanList(tx, request.loanId);
    await auditAnswer(tx, actor, answer, request, { messageId, confirmed, canceled, parties });
  });
  const answered = await findMessage(db, answer.participantId, messageId);
  if (!answered) throw new NotFoundError(MESSAGE_ERRORS.notFound);
  return answered;
}

/** The loan's other open requests whose requester may no longer transfer their role once `answered` is confirmed. */
async function requestsLosingTheirAsker(
  tx: Parameters<typeof repository.lockOtherOpenRequests>[0],
  answered: repository.OpenRequestRow,
): Promise<repository.CancelableRequestRow[]> {
  const { parties, open } = await repository.lockOtherOpenRequests(tx, answered);
  const after = parties.map((party) =>
    party.role === answered.role ? { ...party, participantId: answered.receiverId, state: 'CONFIRMED' } : party,
  );
  return open.filter((candidate) => !transferableRoles(after, candidate.requesterId).includes(candidate.role));
}

/** The answer's audit rows: the answered transfer (the message's answer with it), then each transfer it canceled. */
async function auditAnswer(
  tx: Transaction,
  actor: AuditActor,
  answer: MessageAnswer,
  request: repository.OpenRequestRow,
  outcome: {
    readonly messageId: string;
    readonly confirmed: boolean;
    readonly canceled: readonly repository.CancelableRequestRow[];
    readonly parties: ReadonlyMap<string, unknown>;
  },
): Promise<void> {
  const state = outcome.confirmed ? 'CONFIRMED' : 'REJECTED';
  const receiver = { id: request.receiverId, name: request.receiverName };
  await appendAudit(tx, actor, {
    participantId: answer.participantId,
    loanId: request.loanId,
    action: outcome.confirmed ? 'role-transfer.confirmed' : 'role-transfer.rejected',
    targetType: 'role-request',
    targetId: request.id,
    before: {
      party: outcome.parties.get(request.role) ?? null,
      request: { state: 'PENDING', receiver },
      message: { id: outcome.messageId, response: null },
    },
    after: {
      party: await auditedParty(tx, request.loanId, request.role),
      request: { state, receiver },
      message: { id: outcome.messageId, response: outcome.confirmed },
      event: { state: outcome.confirmed ? 'Confirmed' : 'Rejected', role: request.role },
    },
  });
  for (const open of outcome.canceled) {
    const openReceiver = { id: open.receiverId, name: open.receiverName };
    await appendAudit(tx, actor, {
      participantId: answer.participantId,
      loanId: open.loanId,
      action: 'role-transfer.canceled',
      targetType: 'role-request',
      targetId: open.id,
      before: { party: outcome.parties.get(open.role) ?? null, request: { state: 'PENDING', receiver: openReceiver } },
      after: {
        party: await auditedParty(tx, open.loanId, open.role),
        request: { state: 'CANCELED', receiver: openReceiver },
        event: { state: 'Canceled', role: open.role },
      },
    });
  }
}
