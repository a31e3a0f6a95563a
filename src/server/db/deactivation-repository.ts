// Deactivation requests (SPEC sections 3, 4 and 7), the data of them: the rows a request writes
// (instrument, event, request) and those its processing writes (the loan made Inactive, the
// history confirmed, the organization told). services/deactivations.ts decides and runs the
// transactions.
import { and, eq, sql } from 'drizzle-orm';
import type { DeactivationFields } from '../../contract/deactivation';
import {
  DEACTIVATION_DOCUMENT_NAME,
  DEACTIVATION_DOCUMENT_TYPE,
  DEACTIVATION_EVENT_TYPES,
  DEACTIVATION_REASON_LABELS,
  PDF_CONTENT_TYPE,
} from '../../domain/deactivation';
import { DEACTIVATION_TEXTS } from '../../domain/deactivation-texts';
import { LOAN_LIST_CHANGES_CHANNEL } from './caller-changes';
import type { Transaction } from './database';
import { deactivationRequests, documents, loanEvents, loans, messages } from './schema';

export interface InstrumentUpload {
  /** The name the file was sent with (kept for the record; the content decides what it is). */
  readonly fileName: string;
  readonly content: Buffer;
  /** SHA-256 of the content, lower-case hex. */
  readonly hash: string;
}

export interface NewDeactivationRequest {
  readonly loanId: string;
  readonly participantId: string;
  readonly participantName: string;
  readonly userId: string | null;
  readonly fields: DeactivationFields;
  readonly instrument: InstrumentUpload;
}

export interface DeactivationCheck {
  readonly status: string;
  readonly deactivated: boolean;
  /** The organization's roles on the loan. */
  readonly roles: string[];
  /** A request waits: a SUBMITTED request, or a DEACTIVATION_REQUESTED event still Requested (as the seed records some). */
  readonly pending: boolean;
  /** A role transfer waits for its answer: a deactivated loan must not keep one open. */
  readonly transferPending: boolean;
}

interface LoanCheckRow extends Record<string, unknown> {
  readonly status: string;
  readonly deactivated: boolean;
  readonly roles: string[];
  readonly pending: boolean;
  readonly transfer_pending: boolean;
}

/**
 * What a deactivation request is decided on. Read after the loan row is locked, in its own
 * statement: under READ COMMITTED its snapshot is taken after the wait, so it sees the request a
 * concurrent transaction committed.
 */
export async function findDeactivationCheck(
  tx: Transaction,
  loanId: string,
  participantId: string,
): Promise<DeactivationCheck | undefined> {
  const checked = await tx.execute<LoanCheckRow>(sql`
    select l.status, l.deactivated,
      array(select lp.role from loan_parties lp where lp.loan_id = l.id and lp.participant_id = ${participantId}) as roles,
      exists(select 1 from deactivation_requests d where d.loan_id = l.id and d.status = 'SUBMITTED')
        or exists(select 1 from loan_events e where e.loan_id = l.id and e.event_type = ${DEACTIVATION_EVENT_TYPES.requested}
          and e.state = 'Requested') as pending,
      exists(select 1 from role_requests r where r.loan_id = l.id and r.state = 'PENDING') as transfer_pending
    from loans l
    where l.id = ${loanId}`);
  const row = checked.rows[0];
  return (
    row && {
      status: row.status,
      deactivated: row.deactivated,
      roles: row.roles,
      pending: row.pending,
      transferPending: row.transfer_pending,
    }
  );
}

/** Writes a deactivation request: the instrument, the Requested event and the SUBMITTED request row. */
export async function insertDeactivationRequest(
  tx: Transaction,
  request: NewDeactivationRequest,
): Promise<{ readonly requestId: string; readonly documentId: string }> {
  const { fields, instrument } = request;
  const [document] = await tx
    .insert(documents)
    .values({
      loanId: request.loanId,
      name: DEACTIVATION_DOCUMENT_NAME,
      type: DEACTIVATION_DOCUMENT_TYPE,
      hash: instrument.hash,
      fileName: instrument.fileName,
      fileType: 'pdf',
      contentType: PDF_CONTENT_TYPE,
      docType: DEACTIVATION_DOCUMENT_TYPE,
      sizeBytes: instrument.content.length,
      content: instrument.content,
    })
    .returning({ id: documents.id });
  if (!document) throw new Error('deactivation instrument not stored');

  await tx.insert(loanEvents).values({
    loanId: request.loanId,
    participantId: request.participantId,
    state: 'Requested',
    eventType: DEACTIVATION_EVENT_TYPES.requested,
    eventDescription: DEACTIVATION_TEXTS.requestedEvent(request.participantName, DEACTIVATION_REASON_LABELS[fields.reason]),
    // The history shows the requested date while the request waits (SPEC section 4).
    effectiveDate: null,
    requestedDate: sql`current_date`,
  });

  const [created] = await tx
    .insert(deactivationRequests)
    .values({
      loanId: request.loanId,
      participantId: request.participantId,
      requestedBy: request.userId,
      reason: fields.reason,
      effectiveDate: fields.effectiveDate,
      assignee: fields.assignee,
      entityType: fields.entityType,
      statePostalCode: fields.statePostalCode,
      street1: fields.address.street1,
      street2: fields.address.street2,
      city: fields.address.city,
      state: fields.address.state,
      zip: fields.address.zip,
      documentId: document.id,
      bookNumber: fields.bookNumber,
      pageNumber: fields.pageNumber,
      instrumentNumber: fields.instrumentNumber,
      status: 'SUBMITTED',
    })
    .returning({ id: deactivationRequests.id });
  if (!created) throw new Error('deactivation request not stored');
  // The asset list's pages show a waiting request (deactivationPending): every server's page
  // cache is emptied at commit, as by a change to the list index itself (migration 0019).
  await tx.execute(sql`select pg_notify(${LOAN_LIST_CHANGES_CHANNEL}, '')`);

  return { requestId: created.id, documentId: document.id };
}

/** The loan's waiting DEACTIVATION_REQUESTED event, once the request is decided (the list's pages then show none waiting). */
export async function settleRequestedEvent(tx: Transaction, loanId: string, state: 'Confirmed' | 'Rejected'): Promise<void> {
  await tx.execute(sql`select pg_notify(${LOAN_LIST_CHANGES_CHANNEL}, '')`);
  await tx
    .update(loanEvents)
    .set({ state })
    .where(
      and(eq(loanEvents.loanId, loanId), eq(loanEvents.eventType, DEACTIVATION_EVENT_TYPES.requested), eq(loanEvents.state, 'Requested')),
    );
}

/** A notice on the loan to the organization that asked. */
export async function tellRequester(tx: Transaction, request: { participantId: string; loanId: string }, message: string): Promise<void> {
  await tx
    .insert(messages)
    .values({ participantId: request.participantId, targetType: 'LOAN', targetId: request.loanId, message, isActionable: false });
}

export interface RecordedRequest {
  readonly loanId: string;
  readonly participantId: string;
  readonly status: string;
  readonly effectiveDate: string;
  /** The day it was recorded, YYYY-MM-DD. */
  readonly requestedOn: string;
}

/** A recorded request, locked: a retry running beside a slow first attempt waits, then sees what it did. */
export async function lockRecordedRequest(tx: Transaction, requestId: string): Promise<RecordedRequest | undefined> {
  const [request] = await tx
    .select({
      loanId: deactivationRequests.loanId,
      participantId: deactivationRequests.participantId,
      status: deactivationRequests.status,
      effectiveDate: deactivationRequests.effectiveDate,
      requestedOn: sql<string>`to_char(${deactivationRequests.createdAt}, 'YYYY-MM-DD')`,
    })
    .from(deactivationRequests)
    .where(eq(deactivationRequests.id, requestId))
    .for('update');
  return request;
}

/** The loan's ULI; with `lock`, the loan row is locked first (before the rows a deactivation changes). */
export async function findLoanUli(tx: Transaction, loanId: string, options: { readonly lock: boolean }): Promise<string | undefined> {
  const query = tx.select({ uli: loans.uli }).from(loans).where(eq(loans.id, loanId));
  const [loan] = options.lock ? await query.for('no key update') : await query;
  return loan?.uli;
}

/** The loan Inactive and deactivated (the asset list's triggers then show it Deactivated). */
export async function markLoanDeactivated(tx: Transaction, loanId: string): Promise<void> {
  await tx
    .update(loans)
    .set({ status: 'Inactive', deactivated: true, updatedAt: sql`now()` })
    .where(eq(loans.id, loanId));
}

/** The DEACTIVATION event of a processed request, named after the organization that asked. */
export async function insertDeactivationEvent(tx: Transaction, request: RecordedRequest): Promise<void> {
  const [requester] = await tx
    .execute<{ name: string }>(sql`select name from participants where id = ${request.participantId}`)
    .then((result) => result.rows);
  await tx.insert(loanEvents).values({
    loanId: request.loanId,
    participantId: request.participantId,
    state: 'Confirmed',
    eventType: DEACTIVATION_EVENT_TYPES.confirmed,
    eventDescription: DEACTIVATION_TEXTS.confirmedEvent(requester?.name ?? ''),
    effectiveDate: request.effectiveDate,
    requestedDate: request.requestedOn,
  });
}

export async function setRequestStatus(tx: Transaction, requestId: string, status: 'COMPLETED' | 'FAILED'): Promise<void> {
  await tx.update(deactivationRequests).set({ status }).where(eq(deactivationRequests.id, requestId));
}
