// Role transfers (issue 7, our addition to SPEC section 7): the directory of active organizations
// a request is addressed to, the request itself (the role PENDING, a Requested event, an actionable
// message to the receiver) and the receiver's answer to that message (the role CONFIRMED to the
// receiver or REJECTED, the event, the requester told). Each write is one transaction.
import { asc, eq, sql } from 'drizzle-orm';
import { DEACTIVATION_EVENT_TYPES } from '../../domain/deactivation';
import { MESSAGE_ERRORS } from '../../domain/messages';
import {
  TRANSFER_EVENT_DESCRIPTIONS,
  TRANSFER_EVENT_OF_ROLE,
  TRANSFER_MESSAGES,
  transferableRoles,
  type TransferableRole,
  type TransferParty,
} from '../../domain/role-transfer';
import { badRequest, conflict, notFound } from '../http-errors';
import type { Database, Transaction } from './database';
import { loanEvents, messages, participants, roleRequests } from './schema';
import { writeTransaction } from './write-transaction';

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

export type RoleRequestOutcome =
  /** No such loan, or one the organization may not see (the caller cannot tell which). */
  | { readonly kind: 'notFound' }
  | { readonly kind: 'deactivated' }
  /** A deactivation request waits to be processed: the loan is about to be deactivated. */
  | { readonly kind: 'deactivationPending' }
  | { readonly kind: 'noParty' }
  | { readonly kind: 'notAllowed' }
  | { readonly kind: 'alreadyPending' }
  | { readonly kind: 'receiverUnknown' }
  | { readonly kind: 'receiverHoldsRole' }
  | { readonly kind: 'created'; readonly request: RoleRequestRow };

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

/** A PostgreSQL unique violation of `constraint`, as pg raises it or drizzle wraps it. */
function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code, constraint: name } = current as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505' && name === constraint) return true;
  }
  return false;
}

/**
 * Records a transfer request, all of it or nothing: the loan party's state becomes PENDING (its
 * current value stays), a Requested event of the role's transfer type names the receiver, the
 * receiver gets an actionable message on the loan, and the request row points at that message.
 * The loan row is locked first, so two requests for one loan are decided one after the other; the
 * unique partial index on open requests backs the PENDING check up (its violation is the same 409).
 */
export async function requestRoleTransfer(db: Database, request: NewRoleRequest): Promise<RoleRequestOutcome> {
  try {
    return await writeTransaction(db, async (tx): Promise<RoleRequestOutcome> => {
      // The lock first, the checks in the next statement: under READ COMMITTED that statement's
      // snapshot is taken after the wait, so it sees what a concurrent request committed.
      await tx.execute(sql`select 1 from loans where id = ${request.loanId} for no key update`);
      const checked = await tx.execute<RequestCheckRow>(sql`
        select l.uli, l.status, l.deactivated,
          -- As requestDeactivation decides it: a waiting request row, or a waiting request event (the seed writes those alone).
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
      const loan = checked.rows[0];
      if (!loan || !loan.visible) return { kind: 'notFound' };
      if (loan.status !== 'Active' || loan.deactivated) return { kind: 'deactivated' };
      if (loan.deactivation_pending) return { kind: 'deactivationPending' };
      const party = loan.parties.find((candidate) => candidate.role === request.role);
      if (!party) return { kind: 'noParty' };
      if (!transferableRoles(loan.parties, request.participantId).includes(request.role)) return { kind: 'notAllowed' };
      if (party.state === 'PENDING') return { kind: 'alreadyPending' };
      const receiver = loan.receiver;
      if (!receiver) return { kind: 'receiverUnknown' };
      if (party.participantId === receiver.id) return { kind: 'receiverHoldsRole' };

      // The receiver's message first: its message_counts row is locked before the party's update
      // locks the asset list's counts, the order every write takes (write-transaction.ts).
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
          partyStateBefore: party.state,
          messageId: message.id,
        })
        .returning({ id: roleRequests.id, createdAt: roleRequests.createdAt });
      if (!created) throw new Error('role request not stored');
      return {
        kind: 'created',
        request: { id: created.id, loanId: request.loanId, role: request.role, state: 'PENDING', receiver, createdAt: created.createdAt },
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, OPEN_REQUEST_INDEX)) return { kind: 'alreadyPending' };
    throw error;
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface AnsweredMessageRow extends Record<string, unknown> {
  readonly isActionable: boolean;
  readonly response: boolean | null;
}

/** A role request row as the answer and the cancel read it. */
interface RequestRow extends Record<string, unknown> {
  readonly id: string;
  readonly loanId: string;
  readonly role: TransferableRole;
  readonly requesterId: string;
  readonly receiverId: string;
  readonly receiverName: string;
  readonly requestedOn: string;
}

interface OpenRequestRow extends RequestRow {
  readonly uli: string;
}

/** Another open request of the loan, with what a cancel needs. */
interface CancelableRequestRow extends RequestRow {
  readonly requesterName: string;
  readonly messageId: string | null;
  readonly partyStateBefore: string | null;
}

/**
 * The loan's other open requests whose requester may no longer transfer their role once `answered`
 * is confirmed (transferableRoles over the parties as they will be), locked. The loan is locked
 * already, so no request can be added meanwhile.
 */
async function requestsLosingTheirAsker(tx: Transaction, answered: OpenRequestRow): Promise<CancelableRequestRow[]> {
  const { rows: parties } = await tx.execute<TransferParty & Record<string, unknown>>(sql`
    select role, participant_id as "participantId", state from loan_parties where loan_id = ${answered.loanId}`);
  const after = parties.map((party) =>
    party.role === answered.role ? { ...party, participantId: answered.receiverId, state: 'CONFIRMED' } : party,
  );
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
  return open.filter((candidate) => !transferableRoles(after, candidate.requesterId).includes(candidate.role));
}

/**
 * Closes an open request as CANCELED: the role's party state goes back to what it was when it was
 * asked for, the loan gets a Canceled event, the receiver's message no longer takes an answer, and
 * the receiver is told why.
 */
async function cancelRequest(tx: Transaction, open: CancelableRequestRow, uli: string): Promise<void> {
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
 * The receiver's answer to an actionable message, in one transaction: confirm (true) makes the
 * receiver the role's current value, CONFIRMED; reject (false) leaves the current value, REJECTED.
 * Either way the loan gets a Confirmed or Rejected event, the request is closed, the message is
 * read and keeps the answer, the requester gets a message saying so, and the loan counts as
 * updated (the asset list index follows through its triggers). The message row is locked first,
 * so of two simultaneous answers one acts and the other finds it answered.
 * Throws ApiError: 404 for an unknown message or another organization's, 400 for a message that
 * takes no response, 409 for one answered already (or whose request is no longer open).
 */
export async function answerMessage(
  db: Database,
  args: { participantId: string; userId: string | null; messageId: string; response: boolean },
): Promise<void> {
  // args.participantId answers (the message must be its own); args.response: true confirms, false rejects.
  if (!UUID_PATTERN.test(args.messageId)) throw notFound(MESSAGE_ERRORS.notFound);
  const messageId = args.messageId.toLowerCase();
  await writeTransaction(db, async (tx) => {
    // The party and the loan both change: the asset list index is refreshed once, at the end,
    // instead of by each statement's trigger (each refresh rewrites the loan's entries and search rows).
    await tx.execute(sql`select loan_list_defer()`);
    const [message] = await tx
      .execute<AnsweredMessageRow>(
        sql`
        select is_actionable as "isActionable", response from messages
        where id = ${messageId} and participant_id = ${args.participantId}
        for update`,
      )
      .then((result) => result.rows);
    if (!message) throw notFound(MESSAGE_ERRORS.notFound);
    if (!message.isActionable) throw badRequest(MESSAGE_ERRORS.notActionable);
    if (message.response !== null) throw conflict(MESSAGE_ERRORS.alreadyAnswered);

    // The loan is locked as a request locks it (and as the list index triggers do), before its rows change.
    const [request] = await tx
      .execute<OpenRequestRow>(
        sql`
        select r.id, r.loan_id as "loanId", r.role, r.requester_participant_id as "requesterId",
          r.receiver_participant_id as "receiverId", receiver.name as "receiverName", l.uli,
          to_char(r.created_at, 'YYYY-MM-DD') as "requestedOn"
        from role_requests r
        join loans l on l.id = r.loan_id
        join participants receiver on receiver.id = r.receiver_participant_id
        where r.message_id = ${messageId} and r.state = 'PENDING'
        for update of r for no key update of l`,
      )
      .then((result) => result.rows);
    if (!request) throw conflict(MESSAGE_ERRORS.alreadyAnswered);
    const confirmed = args.response;
    // A confirmed transfer can take away what other open requests on the loan were asked by: an
    // owner's request for a new servicer once the ownership has moved on. Those are canceled below.
    const canceled = confirmed ? await requestsLosingTheirAsker(tx, request) : [];
    // The answer changes the organizations' message counts (message_counts, migration 0010): lock
    // their rows in id order first, so two answers between the same organizations in opposite
    // directions wait for each other instead of deadlocking.
    const counted = [...new Set([request.receiverId, request.requesterId, ...canceled.map((open) => open.receiverId)])];
    await tx.execute(sql`
      select 1 from message_counts
      where participant_id in (${sql.join(
        counted.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by participant_id for update`);

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
    for (const open of canceled) await cancelRequest(tx, open, request.uli);
    await tx.execute(sql`update loans set updated_at = now() where id = ${request.loanId}`);
    // Deferral off first: with it on, the refresh's own triggers would skip the list's day counts
    // and totals, and the organizations' totals would keep the loan where it was.
    await tx.execute(sql`select set_config('registry.loan_list_deferred', 'off', true)`);
    await tx.execute(sql`select loan_list_refresh(array[${request.loanId}]::uuid[])`);
  });
}
