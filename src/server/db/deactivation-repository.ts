// Deactivation requests (SPEC sections 3, 4 and 7): recording one (instrument, event, request and
// its processing job in one transaction) and processing it (the loan made Inactive, the history
// confirmed, the organization told), idempotently.
import { and, eq, sql } from 'drizzle-orm';
import type { DeactivationFields } from '../../contract/deactivation';
import {
  DEACTIVATING_ROLES,
  DEACTIVATION_DOCUMENT_NAME,
  DEACTIVATION_DOCUMENT_TYPE,
  DEACTIVATION_EVENT_TYPES,
  DEACTIVATION_REASON_LABELS,
  PDF_CONTENT_TYPE,
} from '../../domain/deactivation';
import { DEACTIVATION_TEXTS } from '../../domain/texts';
import type { Database, Transaction } from './database';
import { deactivationRequests, documents, loanEvents, loans, messages } from './schema';
import { writeTransaction } from './write-transaction';

/** A drizzle transaction, as `db.transaction(async (tx) => ...)` gives it. */

/** SPEC section 6's rule for this call: the organization holds one of these roles on the loan. */

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

export type DeactivationOutcome =
  /** No such loan, or the organization holds no role on it (the caller cannot tell which). */
  | { readonly kind: 'notFound' }
  /** Visible, but neither owner nor servicer. */
  | { readonly kind: 'forbidden' }
  | { readonly kind: 'inactive' }
  /** A request waits: a SUBMITTED request, or a DEACTIVATION_REQUESTED event still Requested (as the seed records some). */
  | { readonly kind: 'pending' }
  /** A role transfer waits for its answer: a deactivated loan must not keep one open. */
  | { readonly kind: 'transferPending' }
  | { readonly kind: 'accepted'; readonly requestId: string; readonly documentId: string };

interface LoanCheckRow extends Record<string, unknown> {
  readonly status: string;
  readonly deactivated: boolean;
  readonly roles: string[];
  readonly pending: boolean;
  readonly transfer_pending: boolean;
}

/**
 * Records a deactivation request and, in the same transaction, queues its processing through
 * `enqueue` (given the transaction): all of it happens, or none. The loan row is locked first, so
 * two requests for one loan are decided one after the other (the second sees the first: 409).
 * A foreign organization learns nothing it could not learn from the details call (404 alike).
 */
export async function requestDeactivation(
  db: Database,
  request: NewDeactivationRequest,
  enqueue: (tx: Transaction, requestId: string) => Promise<unknown>,
): Promise<DeactivationOutcome> {
  return writeTransaction(db, async (tx) => {
    // The lock first, the checks in the next statement: under READ COMMITTED that statement's
    // snapshot is taken after the wait, so it sees the request a concurrent transaction committed.
    await tx.execute(sql`select 1 from loans where id = ${request.loanId} for no key update`);
    const checked = await tx.execute<LoanCheckRow>(sql`
      select l.status, l.deactivated,
        array(select lp.role from loan_parties lp where lp.loan_id = l.id and lp.participant_id = ${request.participantId}) as roles,
        exists(select 1 from deactivation_requests d where d.loan_id = l.id and d.status = 'SUBMITTED')
          or exists(select 1 from loan_events e where e.loan_id = l.id and e.event_type = ${DEACTIVATION_EVENT_TYPES.requested}
            and e.state = 'Requested') as pending,
        exists(select 1 from role_requests r where r.loan_id = l.id and r.state = 'PENDING') as transfer_pending
      from loans l
      where l.id = ${request.loanId}`);
    const loan = checked.rows[0];
    if (!loan || loan.roles.length === 0) return { kind: 'notFound' };
    if (!loan.roles.some((role) => (DEACTIVATING_ROLES as readonly string[]).includes(role))) return { kind: 'forbidden' };
    if (loan.status !== 'Active' || loan.deactivated) return { kind: 'inactive' };
    if (loan.pending) return { kind: 'pending' };
    if (loan.transfer_pending) return { kind: 'transferPending' };

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

    await enqueue(tx, created.id);
    return { kind: 'accepted', requestId: created.id, documentId: document.id };
  });
}

/** The loan's waiting DEACTIVATION_REQUESTED event, once the request is decided. */
async function settleRequestedEvent(tx: Transaction, loanId: string, state: 'Confirmed' | 'Rejected'): Promise<void> {
  await tx
    .update(loanEvents)
    .set({ state })
    .where(
      and(eq(loanEvents.loanId, loanId), eq(loanEvents.eventType, DEACTIVATION_EVENT_TYPES.requested), eq(loanEvents.state, 'Requested')),
    );
}

/** A notice on the loan to the organization that asked. */
async function tellRequester(tx: Transaction, request: { participantId: string; loanId: string }, message: string): Promise<void> {
  await tx
    .insert(messages)
    .values({ participantId: request.participantId, targetType: 'LOAN', targetId: request.loanId, message, isActionable: false });
}

export type ProcessOutcome = 'completed' | 'alreadyCompleted' | 'missing';

/**
 * Processes a recorded request in one transaction: the loan becomes Inactive and deactivated (the
 * asset list's triggers then show it Deactivated), its waiting request event is confirmed and a
 * DEACTIVATION event added, the request is COMPLETED, and the requesting organization gets a
 * message on the loan. Idempotent: a completed request (or one whose loan is gone) changes nothing.
 */
export async function processDeactivation(db: Database, requestId: string): Promise<ProcessOutcome> {
  return writeTransaction(db, async (tx) => {
    // Locked, so a retry running beside a slow first attempt waits and then sees it completed.
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
    if (!request) return 'missing';
    if (request.status === 'COMPLETED') return 'alreadyCompleted';

    // The loan locked, then the requester's message (its message_counts row), then the loan's
    // update (the asset list's counts): the order every write takes (write-transaction.ts).
    const [loan] = await tx.select({ uli: loans.uli }).from(loans).where(eq(loans.id, request.loanId)).for('no key update');
    if (!loan) return 'missing';
    await tellRequester(tx, request, DEACTIVATION_TEXTS.completeMessage(loan.uli));
    await tx
      .update(loans)
      .set({ status: 'Inactive', deactivated: true, updatedAt: sql`now()` })
      .where(eq(loans.id, request.loanId));

    const [requester] = await tx
      .execute<{ name: string }>(sql`select name from participants where id = ${request.participantId}`)
      .then((result) => result.rows);
    const organization = requester?.name ?? '';
    await settleRequestedEvent(tx, request.loanId, 'Confirmed');
    await tx.insert(loanEvents).values({
      loanId: request.loanId,
      participantId: request.participantId,
      state: 'Confirmed',
      eventType: DEACTIVATION_EVENT_TYPES.confirmed,
      eventDescription: DEACTIVATION_TEXTS.confirmedEvent(organization),
      effectiveDate: request.effectiveDate,
      requestedDate: request.requestedOn,
    });
    await tx.update(deactivationRequests).set({ status: 'COMPLETED' }).where(eq(deactivationRequests.id, requestId));
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
    const [request] = await tx
      .select({
        loanId: deactivationRequests.loanId,
        participantId: deactivationRequests.participantId,
        status: deactivationRequests.status,
      })
      .from(deactivationRequests)
      .where(eq(deactivationRequests.id, requestId))
      .for('update');
    if (!request) return 'missing';
    if (request.status !== 'SUBMITTED') return 'notSubmitted';
    await tx.update(deactivationRequests).set({ status: 'FAILED' }).where(eq(deactivationRequests.id, requestId));
    await settleRequestedEvent(tx, request.loanId, 'Rejected');
    const [loan] = await tx.select({ uli: loans.uli }).from(loans).where(eq(loans.id, request.loanId));
    await tellRequester(tx, request, DEACTIVATION_TEXTS.failedMessage(loan?.uli ?? ''));
    return 'failed';
  });
}
