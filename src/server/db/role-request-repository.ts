// Role transfers (our addition to SPEC section 7), the data of them: the directory of active
// organizations a request is addressed to, the rows a request writes (the role PENDING, a
// Requested event, an actionable message to the receiver) and those an answer writes (the role
// CONFIRMED to the receiver or REJECTED, the event, the requester told). The decisions and the one
// transaction around them are services/role-transfers.ts's.
import { asc, eq, sql } from 'drizzle-orm';
import { DEACTIVATION_EVENT_TYPES } from '../../domain/deactivation';
import {
  TRANSFER_EVENT_DESCRIPTIONS,
  TRANSFER_EVENT_OF_ROLE,
  TRANSFER_MESSAGES,
  type TransferableRole,
  type TransferParty,
} from '../../domain/role-transfer';
import type { Database, Transaction } from './database';
import { loanEvents, messages, participants, roleRequests } from './schema';

export interface DirectoryRow {
  readonly id: string;
  readonly name: string;
}

/** Every active organization, id and name only, by name (ties by id). */
export async function listDirectory(db: Database): Promise<DirectoryRow[]> {
  return db
    .select({ id: participants.id, name: participants.name })
    .from(participants)
    .where(eq(participants.isActive, true))
    .orderBy(asc(participants.name), asc(participants.id));
}

export interface NewRoleRequest {
  readonly loanId: string;
  readonly role: TransferableRole;
  /** The receiving organization. */
  readonly receiverId: string;
  /** The requesting organization (the caller's current one). */
  readonly participantId: string;
  readonly participantName: string;
  /** The signed-in user who asks. */
  readonly userId: string | null;
}

export interface RoleRequestRow {
  readonly id: string;
  readonly loanId: string;
  readonly role: TransferableRole;
  readonly state: 'PENDING';
  readonly receiver: DirectoryRow;
  readonly createdAt: Date;
}

export interface TransferCheck {
  readonly uli: string;
  readonly status: string;
  readonly deactivated: boolean;
  /** A deactivation request waits to be processed: the loan is about to be deactivated. */
  readonly deactivationPending: boolean;
  /** The organization holds a role on the loan or was asked to take one. */
  readonly visible: boolean;
  readonly parties: TransferParty[];
  /** The receiver, when it is an active organization. */
  readonly receiver: DirectoryRow | null;
}

interface RequestCheckRow extends Record<string, unknown> {
  readonly uli: string;
  readonly status: string;
  readonly deactivated: boolean;
  readonly deactivation_pending: boolean;
  readonly visible: boolean;
  readonly parties: TransferParty[];
  readonly receiver: DirectoryRow | null;
}

/** The unique partial index of migration 0009: one PENDING request per loan and role. */
const OPEN_REQUEST_INDEX = 'role_requests_open_key';

/** A violation of the one-open-request-per-role index, as pg raises it or drizzle wraps it. */
export function isOpenRequestConflict(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code, constraint: name } = current as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505' && name === OPEN_REQUEST_INDEX) return true;
  }
  return false;
}

/** Locks the loan row: writes on one loan are decided one after the other. */
export async function lockLoan(tx: Transaction, loanId: string): Promise<void> {
  await tx.execute(sql`select 1 from loans where id = ${loanId} for no key update`);
}

/**
 * What a transfer request is decided on. Read after lockLoan, in its own statement: under READ
 * COMMITTED its snapshot is taken after the wait, so it sees what a concurrent request committed.
 */
export async function findTransferCheck(tx: Transaction, request: NewRoleRequest): Promise<TransferCheck | undefined> {
  const checked = await tx.execute<RequestCheckRow>(sql`
    select l.uli, l.status, l.deactivated,
      -- As the deactivation check decides it: a waiting request row, or a waiting request event (the seed writes those alone).
      exists (select 1 from deactivation_requests d where d.loan_id = l.id and d.status = 'SUBMITTED')
        or exists (select 1 from loan_events e where e.loan_id = l.id and e.event_type = ${DEACTIVATION_EVENT_TYPES.requested}
          and e.state = 'Requested') as deactivation_pending,
      exists (select 1 from loan_parties held where held.loan_id = l.id and held.participant_id = ${request.participantId})
        or exists (select 1 from role_requests asked where asked.receiver_participant_id = ${request.participantId}
          and asked.loan_id = l.id and asked.state = 'PENDING') as visible,
      coalesce((select json_agg(json_build_object('role', lp.role, 'participantId', lp.participant_id, 'state', lp.state))
        from loan_parties lp where lp.loan_id = l.id), '[]'::json) as parties,
      (select json_build_object('id', p.id, 'name', p.name) from participants p
        where p.id = ${request.receiverId} and p.is_active) as receiver
    from loans l
    where l.id = ${request.loanId}`);
  const row = checked.rows[0];
  return (
    row && {
      uli: row.uli,
      status: row.status,
      deactivated: row.deactivated,
      deactivationPending: row.deactivation_pending,
      visible: row.visible,
      parties: row.parties,
      receiver: row.receiver,
    }
  );
}

/**
 * Writes a transfer request: the receiver's actionable message, the party's state PENDING (its
 * current value stays), a Requested event naming the receiver, and the request row pointing at the
 * message. The message first: its message_counts row is locked before the party's update locks the
 * asset list's counts, the order every write takes (write-transaction.ts).
 */
export async function insertTransferRequest(
  tx: Transaction,
  request: NewRoleRequest,
  loan: { readonly uli: string; readonly receiver: DirectoryRow; readonly partyStateBefore: string },
): Promise<RoleRequestRow> {
  const { receiver } = loan;
  const [message] = await tx
    .insert(messages)
    .values({
      participantId: receiver.id,
      targetType: 'REQUEST_EXECUTE_CONTRACT',
      targetId: request.loanId,
      message: TRANSFER_MESSAGES.request(request.participantName, receiver.name, request.role, loan.uli),
      isActionable: true,
    })
    .returning({ id: messages.id });
  if (!message) throw new Error('transfer request message not stored');
  await tx.execute(sql`
    update loan_parties set state = 'PENDING', updated_at = now()
    where loan_id = ${request.loanId} and role = ${request.role}`);
  await tx.insert(loanEvents).values({
    loanId: request.loanId,
    participantId: receiver.id,
    state: 'Requested',
    eventType: TRANSFER_EVENT_OF_ROLE[request.role],
    eventDescription: TRANSFER_EVENT_DESCRIPTIONS.Requested(request.role, receiver.name),
    effectiveDate: null,
    requestedDate: sql`current_date`,
  });
  const [created] = await tx
    .insert(roleRequests)
    .values({
      loanId: request.loanId,
      role: request.role,
      requesterParticipantId: request.participantId,
      receiverParticipantId: receiver.id,
      requestedBy: request.userId,
      state: 'PENDING',
      partyStateBefore: loan.partyStateBefore,
      messageId: message.id,
    })
    .returning({ id: roleRequests.id, createdAt: roleRequests.createdAt });
  if (!created) throw new Error('role request not stored');
  return { id: created.id, loanId: request.loanId, role: request.role, state: 'PENDING', receiver, createdAt: created.createdAt };
}

export interface AnsweredMessageRow extends Record<string, unknown> {
  readonly isActionable: boolean;
  readonly response: boolean | null;
}

/** A role request row as the answer and the cancel read it. */
export interface RequestRow extends Record<string, unknown> {
  readonly id: string;
  readonly loanId: string;
  readonly role: TransferableRole;
  readonly requesterId: string;
  readonly receiverId: string;
  readonly receiverName: string;
  readonly requestedOn: string;
}

export interface OpenRequestRow extends RequestRow {
  readonly uli: string;
}

/** Another open request of the loan, with what a cancel needs. */
export interface CancelableRequestRow extends RequestRow {
  readonly requesterName: string;
  readonly messageId: string | null;
  readonly partyStateBefore: string | null;
}

/**
 * The loan's parties and its other open requests (locked), for deciding which of them an answer
 * cancels. The loan is locked already, so no request can be added meanwhile.
 */
export async function lockOtherOpenRequests(
  tx: Transaction,
  answered: OpenRequestRow,
): Promise<{ readonly parties: TransferParty[]; readonly open: CancelableRequestRow[] }> {
  const { rows: parties } = await tx.execute<TransferParty & Record<string, unknown>>(sql`
    select role, participant_id as "participantId", state from loan_parties where loan_id = ${answered.loanId}`);
  const { rows: open } = await tx.execute<CancelableRequestRow>(sql`
    select r.id, r.loan_id as "loanId", r.role, r.requester_participant_id as "requesterId",
      r.receiver_participant_id as "receiverId", receiver.name as "receiverName", requester.name as "requesterName",
      r.message_id as "messageId", r.party_state_before as "partyStateBefore", to_char(r.created_at, 'YYYY-MM-DD') as "requestedOn"
    from role_requests r
    join participants receiver on receiver.id = r.receiver_participant_id
    join participants requester on requester.id = r.requester_participant_id
    where r.loan_id = ${answered.loanId} and r.state = 'PENDING' and r.id <> ${answered.id}
    order by r.id
    for update of r`);
  return { parties, open };
}

/**
 * Closes an open request as CANCELED: the role's party state goes back to what it was when it was
 * asked for, the loan gets a Canceled event, the receiver's message no longer takes an answer, and
 * the receiver is told why.
 */
export async function cancelRequest(tx: Transaction, open: CancelableRequestRow, uli: string): Promise<void> {
  await tx.execute(sql`
    update loan_parties set state = ${open.partyStateBefore ?? 'CONFIRMED'}, updated_at = now()
    where loan_id = ${open.loanId} and role = ${open.role} and state = 'PENDING'`);
  await tx.insert(loanEvents).values({
    loanId: open.loanId,
    participantId: open.receiverId,
    state: 'Canceled',
    eventType: TRANSFER_EVENT_OF_ROLE[open.role],
    eventDescription: TRANSFER_EVENT_DESCRIPTIONS.Canceled(open.role, open.receiverName),
    effectiveDate: null,
    requestedDate: open.requestedOn,
  });
  await tx.execute(sql`update role_requests set state = 'CANCELED', answered_at = now() where id = ${open.id}`);
  if (open.messageId) await tx.execute(sql`update messages set is_actionable = false where id = ${open.messageId}`);
  await tx.insert(messages).values({
    participantId: open.receiverId,
    targetType: 'LOAN',
    targetId: open.loanId,
    message: TRANSFER_MESSAGES.canceled(open.requesterName, open.role, uli),
    isActionable: false,
  });
}

/**
 * The asset list index is refreshed once, at the end of an answer (refreshLoanList), instead of by
 * each statement's trigger (each refresh rewrites the loan's entries and search rows).
 */
export async function deferLoanList(tx: Transaction): Promise<void> {
  await tx.execute(sql`select loan_list_defer()`);
}

/** The organization's message, locked: of two simultaneous answers one acts, the other finds it answered. */
export async function lockMessageForAnswer(
  tx: Transaction,
  participantId: string,
  messageId: string,
): Promise<AnsweredMessageRow | undefined> {
  const { rows } = await tx.execute<AnsweredMessageRow>(sql`
    select is_actionable as "isActionable", response from messages
    where id = ${messageId} and participant_id = ${participantId}
    for update`);
  return rows[0];
}

/** The open request a message asks to answer, locked with its loan (as a request locks it, and the list index triggers do). */
export async function lockOpenRequestOfMessage(tx: Transaction, messageId: string): Promise<OpenRequestRow | undefined> {
  const { rows } = await tx.execute<OpenRequestRow>(sql`
    select r.id, r.loan_id as "loanId", r.role, r.requester_participant_id as "requesterId",
      r.receiver_participant_id as "receiverId", receiver.name as "receiverName", l.uli,
      to_char(r.created_at, 'YYYY-MM-DD') as "requestedOn"
    from role_requests r
    join loans l on l.id = r.loan_id
    join participants receiver on receiver.id = r.receiver_participant_id
    where r.message_id = ${messageId} and r.state = 'PENDING'
    for update of r for no key update of l`);
  return rows[0];
}

/**
 * Locks the organizations' message_counts rows (migration 0010) in id order, so two answers
 * between the same organizations in opposite directions wait for each other instead of deadlocking.
 */
export async function lockMessageCounts(tx: Transaction, participantIds: readonly string[]): Promise<void> {
  await tx.execute(sql`
    select 1 from message_counts
    where participant_id in (${sql.join(
      participantIds.map((id) => sql`${id}`),
      sql`, `,
    )})
    order by participant_id for update`);
}

/**
 * Writes the receiver's answer: confirm (true) makes the receiver the role's current value,
 * CONFIRMED; reject (false) leaves the current value, REJECTED. The loan gets a Confirmed or
 * Rejected event, the request is closed, the message is read and keeps the answer, and the
 * requester gets a message saying so.
 */
export async function recordAnswer(tx: Transaction, request: OpenRequestRow, messageId: string, confirmed: boolean): Promise<void> {
  if (confirmed) {
    // The receiver becomes the current value, with the provenance id it holds its other roles by
    // (participants have no column of their own for it), else its id, as the details show one without.
    await tx.execute(sql`
      update loan_parties set state = 'CONFIRMED', participant_id = ${request.receiverId}, name = null,
        provenance_id = coalesce((select known.provenance_id from loan_parties known
          where known.participant_id = ${request.receiverId} and known.provenance_id is not null limit 1), ${request.receiverId}::text),
        updated_at = now()
      where loan_id = ${request.loanId} and role = ${request.role}`);
  } else {
    await tx.execute(sql`
      update loan_parties set state = 'REJECTED', updated_at = now()
      where loan_id = ${request.loanId} and role = ${request.role}`);
  }
  const state = confirmed ? 'Confirmed' : 'Rejected';
  await tx.insert(loanEvents).values({
    loanId: request.loanId,
    participantId: request.receiverId,
    state,
    eventType: TRANSFER_EVENT_OF_ROLE[request.role],
    eventDescription: TRANSFER_EVENT_DESCRIPTIONS[state](request.role, request.receiverName),
    effectiveDate: confirmed ? sql`current_date` : null,
    requestedDate: request.requestedOn,
  });
  await tx.execute(sql`
    update role_requests set state = ${confirmed ? 'CONFIRMED' : 'REJECTED'}, answered_at = now()
    where id = ${request.id}`);
  await tx.execute(sql`update messages set read = true, response = ${confirmed} where id = ${messageId}`);
  const outcome = confirmed ? TRANSFER_MESSAGES.confirmed : TRANSFER_MESSAGES.rejected;
  await tx.insert(messages).values({
    participantId: request.requesterId,
    targetType: 'LOAN',
    targetId: request.loanId,
    message: outcome(request.receiverName, request.role, request.uli),
    isActionable: false,
  });
}

/** The loan counts as updated, and the asset list index (deferred by deferLoanList) follows. */
export async function refreshLoanList(tx: Transaction, loanId: string): Promise<void> {
  await tx.execute(sql`update loans set updated_at = now() where id = ${loanId}`);
  // Deferral off first: with it on, the refresh's own triggers would skip the list's day counts
  // and totals, and the organizations' totals would keep the loan where it was.
  await tx.execute(sql`select set_config('registry.loan_list_deferred', 'off', true)`);
  await tx.execute(sql`select loan_list_refresh(array[${loanId}]::uuid[])`);
}
