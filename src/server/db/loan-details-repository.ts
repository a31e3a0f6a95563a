// One loan's details and history, for an organization that holds a role on it (SPEC section 3).
// Each call is one round trip, by primary key and the (loan_id, ...) indexes of loan_parties and
// loan_events, so its cost does not grow with the number of loans.
import type { LoanStatus, RoleState } from '../../domain/loan';
import type { Database } from './database';
import { poolOf } from './pg-pool';
import type { ContactRow, ParticipantRow } from './user-repository';

/** A participant's profile columns, as the details query reads them. */
export type ParticipantProfileRow = Pick<
  ParticipantRow,
  'id' | 'name' | 'email' | 'phoneNumber' | 'street' | 'street2' | 'city' | 'state' | 'zip' | 'url'
> & {
  readonly contacts: Pick<ContactRow, 'type' | 'name' | 'email' | 'phoneNumber'>[];
};

/** One role entry of a loan: a participant (with its profile) or a plain name. */
export interface LoanPartyRow {
  readonly role: string;
  readonly state: RoleState;
  readonly name: string | null;
  readonly provenanceId: string | null;
  readonly participant: ParticipantProfileRow | null;
}

export interface LoanDetailsRow {
  readonly id: string;
  readonly uli: string;
  readonly loanNumber: string;
  readonly loanType: string;
  readonly status: LoanStatus;
  /** ISO dates (yyyy-MM-dd) and instants (UTC, with Z). */
  readonly tradeDate: string | null;
  readonly mortgageeOfRecord: string | null;
  readonly noteAmount: number;
  readonly noteDate: string;
  readonly noteLocation: string | null;
  readonly modification: boolean;
  readonly assumption: boolean;
  readonly borrowerFirstName: string;
  readonly borrowerLastName: string;
  readonly additionalParties: { partyType: string; firstName: string; lastName: string }[];
  readonly dartAsOriginalMortgagee: boolean;
  readonly propertyStreet1: string;
  readonly propertyStreet2: string | null;
  readonly propertyCity: string;
  readonly propertyState: string;
  readonly propertyZip: string;
  readonly deactivated: boolean;
  readonly updatedAt: string;
  readonly parties: LoanPartyRow[];
}

export interface LoanEventRow {
  readonly id: string;
  readonly state: string;
  readonly eventType: string;
  readonly eventDescription: string;
  readonly effectiveDate: string | null;
  readonly requestedDate: string | null;
  readonly participantId: string | null;
  readonly participantName: string | null;
  readonly createdAt: string;
}

/** The order parties are listed in: SPEC's list columns, then the originator, then anything else by name. */
const PARTY_ORDER = `array['OWNER','SERVICER','CONTROLLER','SUB_SERVICER','SECURED_PARTY','ORIGINATOR']::text[]`;
const isoInstant = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const isoDate = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

/**
 * The rule of tenancy for one loan ($1) and organization ($2): the organization holds some role on
 * it, or is the receiver of a pending transfer request on it (it opens the asset from its
 * message before answering). Both are index lookups (loan_parties_loan_role_key, role_requests_receiver_idx).
 */
const HOLDS_ROLE = `(exists (select 1 from loan_parties held where held.loan_id = $1 and held.participant_id = $2)
  or exists (select 1 from role_requests asked where asked.receiver_participant_id = $2 and asked.loan_id = $1 and asked.state = 'PENDING'))`;

// Static statements, prepared by name once per connection: for these primary-key lookups
// PostgreSQL spends as long planning as executing, and the asset page asks both on every visit.
const LOAN_DETAILS_SQL = `
  select
    l.id, l.uli, l.loan_number as "loanNumber", l.loan_type as "loanType", l.status,
    ${isoDate('l.trade_date')} as "tradeDate", l.mortgagee_of_record as "mortgageeOfRecord",
    l.note_amount::float8 as "noteAmount", ${isoDate('l.note_date')} as "noteDate", l.note_location as "noteLocation",
    l.modification, l.assumption, l.borrower_first_name as "borrowerFirstName", l.borrower_last_name as "borrowerLastName",
    l.additional_parties as "additionalParties", l.dart_as_original_mortgagee as "dartAsOriginalMortgagee",
    l.property_street1 as "propertyStreet1", l.property_street2 as "propertyStreet2", l.property_city as "propertyCity",
    l.property_state as "propertyState", l.property_zip as "propertyZip", l.deactivated,
    ${isoInstant('l.updated_at')} as "updatedAt",
    coalesce((
      select json_agg(json_build_object(
        'role', lp.role, 'state', lp.state, 'name', lp.name, 'provenanceId', lp.provenance_id,
        'participant', case when p.id is null then null else json_build_object(
          'id', p.id, 'name', p.name, 'email', p.email, 'phoneNumber', p.phone_number, 'street', p.street, 'street2', p.street2,
          'city', p.city, 'state', p.state, 'zip', p.zip, 'url', p.url,
          'contacts', coalesce((
            select json_agg(json_build_object('type', c.type, 'name', c.name, 'email', c.email, 'phoneNumber', c.phone_number)
              order by c.type, c.name)
            from participant_contacts c where c.participant_id = p.id
          ), '[]'::json)
        ) end
      ) order by array_position(${PARTY_ORDER}, lp.role) nulls last, lp.role)
      from loan_parties lp left join participants p on p.id = lp.participant_id
      where lp.loan_id = l.id
    ), '[]'::json) as parties
  from loans l
  where l.id = $1 and ${HOLDS_ROLE}`;

// One row per event, or one row of nulls when there is none; `visible` tells the two cases apart.
const LOAN_EVENTS_SQL = `
  select visible.ok as visible, e.id, e.state, e.event_type as "eventType", e.event_description as "eventDescription",
    ${isoDate('e.effective_date')} as "effectiveDate", ${isoDate('e.requested_date')} as "requestedDate",
    e.participant_id as "participantId", p.name as "participantName", ${isoInstant('e.created_at')} as "createdAt"
  from (select ${HOLDS_ROLE} as ok) visible
  left join (loan_events e left join participants p on p.id = e.participant_id) on visible.ok and e.loan_id = $1
  order by e.created_at desc, e.id desc`;

/**
 * The loan with its parties and their participants' profiles, or undefined when the loan does
 * not exist or the organization holds no role on it (the caller cannot tell which).
 */
export async function findLoanDetails(db: Database, loanId: string, participantId: string): Promise<LoanDetailsRow | undefined> {
  const result = await poolOf(db).query<LoanDetailsRow>({ name: 'loan_details', text: LOAN_DETAILS_SQL, values: [loanId, participantId] });
  return result.rows[0];
}

/**
 * The loan's events, newest first (by creation, ties by id), or undefined when the loan does not
 * exist or the organization holds no role on it. Newest first is what a history table shows on top.
 */
export async function listLoanEvents(db: Database, loanId: string, participantId: string): Promise<LoanEventRow[] | undefined> {
  const result = await poolOf(db).query<{ visible: boolean } & { [Key in keyof LoanEventRow]: LoanEventRow[Key] | null }>({
    name: 'loan_events',
    text: LOAN_EVENTS_SQL,
    values: [loanId, participantId],
  });
  if (!result.rows[0]?.visible) return undefined;
  return result.rows.filter((row): row is typeof row & LoanEventRow => row.id !== null);
}

/**
 * Whether the organization took part in this loan before, though it holds no role on it now: it
 * asked for or was asked to take over one of its roles (role_requests), or the loan's history
 * names it (loan_events: registration, transfers, deactivation requests). Asked only after the
 * loan was refused (findLoanDetails: undefined): such an organization is told why, while one that
 * never took part learns nothing, not even that the loan exists.
 */
export async function tookPartBefore(db: Database, loanId: string, participantId: string): Promise<boolean> {
  const result = await poolOf(db).query<{ took_part: boolean }>({
    name: 'loan_took_part_before',
    text: `select exists (select 1 from role_requests r
        where r.loan_id = $1 and (r.requester_participant_id = $2 or r.receiver_participant_id = $2))
      or exists (select 1 from loan_events e where e.loan_id = $1 and e.participant_id = $2) as took_part`,
    values: [loanId, participantId],
  });
  return result.rows[0]?.took_part === true;
}
