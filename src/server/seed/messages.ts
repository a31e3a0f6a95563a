// The demo seed's messages and role transfer requests. Three sources, each deterministic
// (own random streams, or hashes of row ids in SQL), none changing a loan, party or event:
//
// - seedInboxMessages: each active organization's everyday messages (about its sample loans, its
//   pools, its relationships, batches), more for the organizations that hold more; none of them
//   actionable.
// - seedRoleRequests: the transfer requests the loan seed's parties imply, read back after the
//   loans are loaded, each with the messages a real request and its answer write (the receiver's
//   actionable message, then the requester's outcome). The rule:
//     * a PENDING party in a transferable role is an open request (state PENDING): asked by the
//       organization holding the role, or, when an outside party holds a servicer or sub-servicer
//       role, by the loan's owning organization (any other PENDING party has no request); the
//       receiver's actionable message is unanswered (response null);
//     * a REJECTED party, by the same rule, is a REJECTED request: the receiver's message answered
//       false and read, and the requester told it was rejected;
//     * a sample of CONFIRMED parties whose history shows the role transferred to their holder
//       (a Confirmed event of the role's transfer type) is a CONFIRMED request received by that
//       holder, asked by the owner for servicer and sub-servicer roles, else by a previous holder.
//   The receiver is an active organization other than the holder and the requester: one of the
//   loan's other organizations that takes such a role when there is one (so it sees the asset its
//   message points to), else one chosen by weight among the organizations that take the role.
// - seedNotices: notices of each loan's history (registrations, transfers, deactivations) for the
//   organization each event names, derived in SQL from loan_events for a hash-chosen share of the
//   events, so that the largest inbox grows with the seed: several hundred messages at the demo's
//   2,000 loans, tens of thousands at a million.
//
// Messages spread over the last 30 days (the newest minutes old), older ones mostly read and some
// archived, as an inbox that is used looks.
import type pg from 'pg';
import { partyRoleLabel, type MESSAGE_TARGET_TYPES } from '../../domain/loan';
import { TRANSFER_EVENT_DESCRIPTIONS, TRANSFER_EVENT_OF_ROLE, TRANSFER_MESSAGES, TRANSFERABLE_ROLES } from '../../domain/role-transfer';
import { DEACTIVATION_TEXTS } from '../../domain/deactivation-texts';
import * as schema from '../db/schema';
import { DAY, HOUR, MINUTE, pad, SEED, weightedOrg, type Context, type Org } from './context';
import { CopyBuffer, CopyTable } from './copy';
import { insertRows, type Row, type Tx } from './insert';
import { Rng } from './random';

/** What the seed's relationships table holds, as the messages need it. */
export interface SeedRelationship {
  readonly id: string;
  readonly from: Org;
  readonly to: Org;
  readonly type: string;
  readonly state: string;
}

const MESSAGE_WINDOW_MINUTES = 30 * 24 * 60;
/** Roles an owning organization may transfer for an outside holder (as domain/role-transfer's rule). */
const OWNER_MAY_TRANSFER: readonly string[] = ['SERVICER', 'SUB_SERVICER'];
/** One CONFIRMED party in this many (of those whose history shows the transfer) gets a CONFIRMED request. */
const CONFIRMED_SAMPLE = 32;
/** Requests handled per COPY round. */
const REQUEST_CHUNK = 20_000;

/** Everyday messages per active organization: a few dozen, plus this many per unit of the organization's weight. */
const INBOX_PER_WEIGHT = 50;

/**
 * The share of history events that become notices, in 1024ths: 35% up to 20,000 loans, falling
 * toward 10% at a million (the largest organization then still gets several tens of thousands).
 */
export function noticeShare(loans: number): number {
  const share = 0.1 + 0.25 * Math.min(1, 20_000 / Math.max(1, loans));
  return Math.round(share * 1024);
}

const REQUEST_TAIL =
  ' Please review the request details, confirm that the information matches your records, and respond before the end of the business day so the registry can complete the update.';
const INFO_TAIL =
  ' The change is recorded on the registry ledger and shown in the asset history; the updated documents can be downloaded from the asset page if your records need them.';

// ---------------------------------------------------------------------------------------------
// Everyday messages

type TargetType = (typeof MESSAGE_TARGET_TYPES)[number];
/** Everyday messages: every kind but the actionable request, which only a role request writes. */
const INBOX_TARGET_TYPES: readonly TargetType[] = ['LOAN', 'RELATIONSHIP', 'POOL', 'BATCH'];

/** Each active organization's everyday messages; none actionable. Returns how many. */
export async function seedInboxMessages(tx: Tx, context: Context, relationships: readonly SeedRelationship[]): Promise<number> {
  const rows: Row<typeof schema.messages>[] = [];
  for (const org of context.activeOrgs) {
    const rng = Rng.stream(SEED, 'messages', org.index);
    const loans = context.loanSamples.get(org.id) ?? [];
    const pools = context.pools.filter((pool) => pool.owner.id === org.id);
    const related = relationships.filter((relationship) => relationship.from.id === org.id || relationship.to.id === org.id);
    const partnerOf = (relationship: SeedRelationship) => (relationship.from.id === org.id ? relationship.to : relationship.from);
    const count = rng.int(15, 40) + Math.round(org.fixture.weight * INBOX_PER_WEIGHT);
    for (let m = 0; m < count; m++) {
      // The first three are fresh and unread: minutes, then hours ago.
      const age =
        m === 0
          ? rng.int(2, 50) * MINUTE
          : m < 3
            ? rng.int(1, 9) * HOUR + rng.int(0, 59) * MINUTE
            : rng.int(12 * 60, MESSAGE_WINDOW_MINUTES - 60) * MINUTE;
      let targetType: TargetType = m === 0 ? 'LOAN' : m === 2 ? 'RELATIONSHIP' : rng.weighted(INBOX_TARGET_TYPES, [50, 15, 15, 20]);
      if (targetType === 'LOAN' && loans.length === 0) targetType = 'BATCH';
      if (targetType === 'RELATIONSHIP' && related.length === 0) targetType = 'BATCH';
      if (targetType === 'POOL' && pools.length === 0) targetType = 'BATCH';
      // Older messages are mostly read.
      const read = m >= 3 && rng.chance(age > 7 * DAY ? 0.8 : 0.5);
      const long = rng.chance(0.3);
      let targetId: string;
      let message: string;
      switch (targetType) {
        case 'LOAN': {
          const loan = rng.pick(loans);
          targetId = loan.id;
          message = rng.pick([
            `A new document was added to asset ${loan.uli}.`,
            `Asset ${loan.uli} was registered with ${org.fixture.name} as a party.`,
            `The borrower's contact details of asset ${loan.uli} were updated.`,
            `A payoff quote was requested for asset ${loan.uli}.`,
          ]);
          if (long) message += INFO_TAIL;
          break;
        }
        case 'RELATIONSHIP': {
          const relationship = rng.pick(related);
          const kind = relationship.type.toLowerCase().replaceAll('_', '-');
          targetId = relationship.id;
          message =
            relationship.state === 'CONFIRMED'
              ? `Your ${kind} relationship with ${partnerOf(relationship).fixture.name} is confirmed; its profile is shared with ${org.fixture.name}.`
              : `Your ${kind} relationship with ${partnerOf(relationship).fixture.name} is ${relationship.state.toLowerCase()}.`;
          break;
        }
        case 'POOL': {
          const pool = rng.pick(pools);
          targetId = pool.id;
          message = `Pool ${pool.name} was updated.`;
          if (long)
            message += ` All assets in pool ${pool.name} have been reviewed and their ownership records confirmed by every party; the pool is ready for settlement reporting.`;
          break;
        }
        default: {
          const batch = `${org.fixture.code}-${pad(rng.int(1, 999_999), 6)}`;
          targetId = batch;
          message = rng.pick([
            `Batch ${batch} finished: all assets were processed.`,
            `Batch ${batch} finished with ${rng.int(1, 9)} asset(s) needing attention.`,
            `Batch document download ${batch} is ready.`,
          ]);
        }
      }
      const archived = read ? rng.chance(0.25) : rng.chance(0.03);
      rows.push({
        id: rng.uuid(),
        participantId: org.id,
        targetType,
        targetId,
        message,
        read,
        archived,
        isActionable: false,
        response: null,
        createdAt: new Date(context.now - age),
      });
    }
  }
  await insertRows(tx, schema.messages, rows);
  return rows.length;
}

/**
 * Runs `statement` with nested loop joins disabled (for the seed's transaction only). The loan
 * tables were just loaded, maybe without their indexes (bulk load) and without statistics: a
 * planner that guesses them small may join them row by row, which at 100,000 loans takes minutes
 * instead of a second. Hash joins over whole tables are what these statements want at any size.
 */
async function withoutNestedLoops<T>(client: pg.ClientBase, statement: () => Promise<T>): Promise<T> {
  await client.query('SET LOCAL enable_nestloop = off');
  try {
    return await statement();
  } finally {
    await client.query('SET LOCAL enable_nestloop TO DEFAULT');
  }
}

// ---------------------------------------------------------------------------------------------
// Role transfer requests

interface PartyRow {
  readonly party_id: string;
  readonly loan_id: string;
  readonly role: string;
  readonly state: 'PENDING' | 'REJECTED' | 'CONFIRMED';
  readonly holder: string | null;
  readonly owner: string | null;
  /** The organizations holding any role on the loan, comma-separated. */
  readonly orgs: string;
  readonly uli: string;
}

const MESSAGE_KEYS = [
  'id',
  'participantId',
  'targetType',
  'targetId',
  'message',
  'read',
  'archived',
  'isActionable',
  'response',
  'createdAt',
] as const;
const REQUEST_KEYS = [
  'id',
  'loanId',
  'role',
  'requesterParticipantId',
  'receiverParticipantId',
  'requestedBy',
  'state',
  'messageId',
  'createdAt',
  'answeredAt',
] as const;

/**
 * The parties that carry a request: PENDING and REJECTED ones in a transferable role, and the
 * CONFIRMED sample; with the loan's ULI, owning organization and organizations. Grouped joins, not
 * per-row lookups: the loan tables may have no indexes yet (bulk load).
 */
const PARTIES_SQL = `
  WITH transfer(role, event_type) AS (SELECT * FROM unnest($1::text[], $2::text[])),
  chosen AS (
    SELECT lp.id, lp.loan_id, lp.role, lp.state, lp.participant_id
      FROM loan_parties lp JOIN transfer t ON t.role = lp.role
     WHERE lp.state IN ('PENDING', 'REJECTED')
    UNION ALL
    SELECT lp.id, lp.loan_id, lp.role, lp.state, lp.participant_id
      FROM loan_parties lp JOIN transfer t ON t.role = lp.role
     WHERE lp.state = 'CONFIRMED' AND lp.participant_id IS NOT NULL
       AND abs(hashtextextended(lp.id::text, $3) % $4) = 0
       AND EXISTS (SELECT 1 FROM loan_events e
                    WHERE e.loan_id = lp.loan_id AND e.event_type = t.event_type AND e.state = 'Confirmed'
                      AND e.participant_id = lp.participant_id)
  ),
  loan_orgs AS (
    SELECT p.loan_id,
           string_agg(DISTINCT p.participant_id::text, ',') AS orgs,
           min(p.participant_id::text) FILTER (WHERE p.role = 'OWNER') AS owner
      FROM loan_parties p
     WHERE p.loan_id IN (SELECT loan_id FROM chosen)
     GROUP BY p.loan_id
  )
  SELECT c.id AS party_id, c.loan_id, c.role, c.state, c.participant_id AS holder, o.owner, coalesce(o.orgs, '') AS orgs, l.uli
    FROM chosen c JOIN loans l ON l.id = c.loan_id JOIN loan_orgs o ON o.loan_id = c.loan_id
   ORDER BY c.id`;

/** A random stream per party, from its id: the same party gets the same request at any seed size. */
const partyStream = (partyId: string): Rng => Rng.stream(SEED, 'role-request', parseInt(partyId.replaceAll('-', '').slice(0, 13), 16));

export interface RoleRequestCounts {
  readonly pending: number;
  readonly rejected: number;
  readonly confirmed: number;
  readonly messages: number;
}

/** Reads the parties back and writes their requests and messages (COPY). */
export async function seedRoleRequests(
  client: pg.ClientBase,
  context: Context,
  usersByOrg: ReadonlyMap<string, readonly string[]>,
): Promise<RoleRequestCounts> {
  const orgById = new Map(context.orgs.map((org) => [org.id, org]));
  const active = (id: string | null): Org | undefined => {
    const org = id ? orgById.get(id) : undefined;
    return org?.fixture.isActive ? org : undefined;
  };
  const roles = [...TRANSFERABLE_ROLES];
  const { rows } = await withoutNestedLoops(client, () =>
    client.query<PartyRow>(PARTIES_SQL, [roles, roles.map((role) => TRANSFER_EVENT_OF_ROLE[role]), SEED, CONFIRMED_SAMPLE]),
  );

  const messageTable = new CopyTable(schema.messages, MESSAGE_KEYS);
  const requestTable = new CopyTable(schema.roleRequests, REQUEST_KEYS);
  const counts = { pending: 0, rejected: 0, confirmed: 0, messages: 0 };
  for (let start = 0; start < rows.length; start += REQUEST_CHUNK) {
    const messages = new CopyBuffer(messageTable);
    const requests = new CopyBuffer(requestTable);
    for (const row of rows.slice(start, start + REQUEST_CHUNK)) {
      const rng = partyStream(row.party_id);
      const holder = active(row.holder);
      const owner = active(row.owner);
      const holders = context.holders.get(row.role);
      if (!holders) continue;
      let requester: Org | undefined;
      let receiver: Org | undefined;
      if (row.state === 'CONFIRMED') {
        receiver = holder;
        requester =
          OWNER_MAY_TRANSFER.includes(row.role) && owner && owner !== holder
            ? owner
            : pickOther(rng, holders.orgs, holders.cumulative, [holder]);
      } else {
        requester = holder ?? (OWNER_MAY_TRANSFER.includes(row.role) ? owner : undefined);
        if (requester) {
          const excluded = [holder, requester];
          const onLoan = row.orgs
            .split(',')
            .map((id) => active(id))
            .filter((org): org is Org => org !== undefined && !excluded.includes(org) && org.fixture.partyRoles.includes(row.role))
            .sort((a, b) => a.index - b.index);
          receiver = onLoan.length > 0 ? rng.pick(onLoan) : pickOther(rng, holders.orgs, holders.cumulative, excluded);
        }
      }
      if (!requester || !receiver) continue;

      const requestedBy = usersByOrg.get(requester.id);
      const requestId = rng.uuid();
      const messageId = rng.uuid();
      const request = TRANSFER_MESSAGES.request(requester.fixture.name, receiver.fixture.name, row.role, row.uli);
      const base = {
        id: requestId,
        loanId: row.loan_id,
        role: row.role,
        requesterParticipantId: requester.id,
        receiverParticipantId: receiver.id,
        requestedBy: requestedBy && requestedBy.length > 0 ? rng.pick(requestedBy) : null,
        state: row.state,
        messageId,
      };
      const actionable = { id: messageId, participantId: receiver.id, targetType: 'REQUEST_EXECUTE_CONTRACT', targetId: row.loan_id };
      if (row.state === 'PENDING') {
        // Open requests are recent: up to two weeks old, a quarter of them opened already.
        const created = new Date(context.now - rng.int(5, 14 * 24 * 60) * MINUTE);
        messages.push({
          ...actionable,
          message: rng.chance(0.2) ? request + REQUEST_TAIL : request,
          read: rng.chance(0.25),
          archived: false,
          isActionable: true,
          response: null,
          createdAt: created,
        });
        requests.push({ ...base, createdAt: created, answeredAt: null });
        counts.pending++;
        counts.messages++;
        continue;
      }
      const confirmed = row.state === 'CONFIRMED';
      const ageMinutes = rng.int(24 * 60, MESSAGE_WINDOW_MINUTES - 60);
      const created = context.now - ageMinutes * MINUTE;
      const answered = created + rng.int(10, Math.min(ageMinutes - 5, 3 * 24 * 60)) * MINUTE;
      const outcome = (confirmed ? TRANSFER_MESSAGES.confirmed : TRANSFER_MESSAGES.rejected)(receiver.fixture.name, row.role, row.uli);
      messages.push({
        ...actionable,
        message: request,
        read: true,
        archived: rng.chance(0.3),
        isActionable: true,
        response: confirmed,
        createdAt: new Date(created),
      });
      const outcomeRead = rng.chance(context.now - answered > 7 * DAY ? 0.85 : 0.5);
      messages.push({
        id: rng.uuid(),
        participantId: requester.id,
        targetType: 'LOAN',
        targetId: row.loan_id,
        message: outcome,
        read: outcomeRead,
        archived: outcomeRead && rng.chance(0.25),
        isActionable: false,
        response: null,
        createdAt: new Date(answered),
      });
      requests.push({ ...base, createdAt: new Date(created), answeredAt: new Date(answered) });
      if (confirmed) counts.confirmed++;
      else counts.rejected++;
      counts.messages += 2;
    }
    // Messages first: the requests refer to them.
    await messages.copy(client);
    await requests.copy(client);
  }
  return counts;
}

/** An organization by weight, other than the excluded ones (undefined when none is left). */
function pickOther(rng: Rng, orgs: readonly Org[], cumulative: readonly number[], excluded: readonly (Org | undefined)[]): Org | undefined {
  const candidates = orgs.filter((org) => !excluded.includes(org));
  if (candidates.length === 0) return undefined;
  if (candidates.length === orgs.length) return weightedOrg(rng, { orgs, cumulative });
  let total = 0;
  return weightedOrg(rng, { orgs: candidates, cumulative: candidates.map((org) => (total += org.fixture.weight)) });
}

// ---------------------------------------------------------------------------------------------
// Notices of the loans' history

/** The notice of each event type and state ({org}: the organization the event names, {uli}: the asset). */
function noticeTemplates(): { eventType: string; state: string; template: string }[] {
  const templates = [
    { eventType: 'REGISTRATION', state: 'Confirmed', template: 'Asset {uli} was registered by {org}.' },
    { eventType: 'DEACTIVATION', state: 'Confirmed', template: DEACTIVATION_TEXTS.completeMessage('{uli}') },
  ];
  for (const role of TRANSFERABLE_ROLES) {
    const eventType = TRANSFER_EVENT_OF_ROLE[role];
    const label = partyRoleLabel(role).toLowerCase();
    templates.push(
      { eventType, state: 'Confirmed', template: `${TRANSFER_EVENT_DESCRIPTIONS.Confirmed(role, '{org}')} on asset {uli}.` },
      { eventType, state: 'Rejected', template: `${TRANSFER_EVENT_DESCRIPTIONS.Rejected(role, '{org}')} on asset {uli}.` },
      { eventType, state: 'Canceled', template: `Transfer of the ${label} role to {org} on asset {uli} was canceled.` },
    );
  }
  return templates;
}

/**
 * A v4 UUID from the 32 hex digits `hex` (an md5): the version digit set to 4, the variant digit to
 * one of 8, 9, a, b (the contract's z.uuid() checks both).
 */
const uuidOfHex = (hex: string) =>
  `(substr(${hex}, 1, 12) || '4' || substr(${hex}, 14, 3) || substr('89ab', get_byte(decode(${hex}, 'hex'), 8) % 4 + 1, 1) || substr(${hex}, 18, 15))::uuid`;

/**
 * Notices for a hash-chosen share of the loans' events, to the active organization each names: a
 * LOAN message with the event's notice, a time in the last 30 days and a read and archived state
 * that follow its age. One 64-bit hash of the event id decides them all (bits 0-9 the sample,
 * 10-29 the age in minutes, 30-37 read, 38-45 archived); an md5 of it makes the message id.
 */
const NOTICES_SQL = `
  INSERT INTO messages (id, participant_id, target_type, target_id, message, read, archived, is_actionable, response, created_at)
  SELECT ${uuidOfHex('n.h')}, e.participant_id, 'LOAN', e.loan_id::text,
         replace(replace(t.template, '{org}', p.name), '{uli}', l.uli),
         r.read,
         CASE WHEN r.read THEN (e.x >> 38) & 255 < CASE WHEN n.age >= 10080 THEN 102 ELSE 26 END ELSE (e.x >> 38) & 255 < 5 END,
         false, NULL, $2::timestamptz - make_interval(mins => n.age::int)
    -- OFFSET 0 keeps the subquery as it is, so the hash is computed once per event.
    FROM (SELECT id, loan_id, participant_id, event_type, state, hashtextextended(id::text, $1) AS x FROM loan_events OFFSET 0) e
    JOIN unnest($3::text[], $4::text[], $5::text[]) AS t(event_type, state, template) ON t.event_type = e.event_type AND t.state = e.state
    JOIN participants p ON p.id = e.participant_id AND p.is_active
    JOIN loans l ON l.id = e.loan_id
   CROSS JOIN LATERAL (SELECT md5('notice:' || e.id::text) AS h, ((e.x >> 10) & 1048575) % $7 + 3 AS age) n
   CROSS JOIN LATERAL (SELECT (e.x >> 30) & 255 < CASE WHEN n.age < 1440 THEN 77 WHEN n.age < 10080 THEN 179 ELSE 235 END AS read) r
   WHERE e.x & 1023 < $6`;

export async function seedNotices(client: pg.ClientBase, context: Context, loans: number): Promise<number> {
  const templates = noticeTemplates();
  const result = await withoutNestedLoops(client, () =>
    client.query(NOTICES_SQL, [
      SEED,
      new Date(context.now).toISOString(),
      templates.map((template) => template.eventType),
      templates.map((template) => template.state),
      templates.map((template) => template.template),
      noticeShare(loans),
      MESSAGE_WINDOW_MINUTES - 3,
    ]),
  );
  return result.rowCount ?? 0;
}
