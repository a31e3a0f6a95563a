// The states the product's rules forbid, as queries that count the rows in such a state: for tests
// that write through the real server under stress (kill -9, concurrency) and then look at the
// database. Each rule follows the writes of services/role-transfers.ts and
// services/deactivations.ts, and the seed's coherence rules (tests/server/seed.test.ts).
import type pg from 'pg';

const TRANSFERABLE = `('OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY')`;

export const REGISTRY_RULES = {
  'pending party (held by an organization) without an open request': `
    SELECT count(*) FROM loan_parties lp
     WHERE lp.state = 'PENDING' AND lp.participant_id IS NOT NULL AND lp.role IN ${TRANSFERABLE}
       AND NOT EXISTS (SELECT 1 FROM role_requests r WHERE r.loan_id = lp.loan_id AND r.role = lp.role AND r.state = 'PENDING')`,
  'open request whose party is not PENDING': `
    SELECT count(*) FROM role_requests r
     WHERE r.state = 'PENDING' AND NOT EXISTS (
       SELECT 1 FROM loan_parties lp WHERE lp.loan_id = r.loan_id AND lp.role = r.role AND lp.state = 'PENDING')`,
  'open request already answered, or without its unanswered actionable message': `
    SELECT count(*) FROM role_requests r LEFT JOIN messages m ON m.id = r.message_id
     WHERE r.state = 'PENDING' AND (r.answered_at IS NOT NULL OR m.id IS NULL OR NOT m.is_actionable OR m.response IS NOT NULL
        OR m.participant_id <> r.receiver_participant_id)`,
  'answered message whose request disagrees, or unread': `
    SELECT count(*) FROM messages m JOIN role_requests r ON r.message_id = m.id
     WHERE m.response IS NOT NULL
       AND NOT (m.read AND r.answered_at IS NOT NULL AND r.state = CASE WHEN m.response THEN 'CONFIRMED' ELSE 'REJECTED' END)`,
  'actionable message without its request': `
    SELECT count(*) FROM messages m WHERE m.is_actionable AND NOT EXISTS (SELECT 1 FROM role_requests r WHERE r.message_id = m.id)`,
  "answered request without the requester's outcome message": `
    SELECT count(*) FROM role_requests r WHERE r.state <> 'PENDING' AND NOT EXISTS (
      SELECT 1 FROM messages m WHERE m.participant_id = r.requester_participant_id AND m.target_id = r.loan_id::text
         AND NOT m.is_actionable AND m.created_at = r.answered_at)`,
  'deactivated flag disagreeing with the Inactive status': `
    SELECT count(*) FROM loans WHERE deactivated <> (status = 'Inactive')`,
  'deactivated loan with a pending transfer': `
    SELECT count(*) FROM role_requests r JOIN loans l ON l.id = r.loan_id WHERE r.state = 'PENDING' AND l.deactivated`,
  'more than one waiting deactivation request on a loan': `
    SELECT count(*) FROM (SELECT loan_id FROM deactivation_requests WHERE status = 'SUBMITTED' GROUP BY loan_id HAVING count(*) > 1) twice`,
  'completed deactivation request whose loan is active, or without its events and message': `
    SELECT count(*) FROM deactivation_requests d JOIN loans l ON l.id = d.loan_id
     WHERE d.status = 'COMPLETED' AND (NOT l.deactivated
        OR NOT EXISTS (SELECT 1 FROM loan_events e WHERE e.loan_id = d.loan_id AND e.event_type = 'DEACTIVATION' AND e.state = 'Confirmed')
        OR EXISTS (SELECT 1 FROM loan_events e WHERE e.loan_id = d.loan_id AND e.event_type = 'DEACTIVATION_REQUESTED' AND e.state = 'Requested')
        OR NOT EXISTS (SELECT 1 FROM messages m WHERE m.participant_id = d.participant_id AND m.target_id = d.loan_id::text
           AND NOT m.is_actionable))`,
  'deactivation request without its instrument document or its Requested event': `
    SELECT count(*) FROM deactivation_requests d
     WHERE NOT EXISTS (SELECT 1 FROM documents doc WHERE doc.id = d.document_id AND doc.loan_id = d.loan_id)
        OR NOT EXISTS (SELECT 1 FROM loan_events e WHERE e.loan_id = d.loan_id AND e.event_type = 'DEACTIVATION_REQUESTED')`,
} as const;

export type RegistryRule = keyof typeof REGISTRY_RULES;

/** How many rows break each rule (0 everywhere when the data is coherent). */
export async function registryRuleBreaches(pool: pg.Pool): Promise<Record<RegistryRule, number>> {
  const breaches = {} as Record<RegistryRule, number>;
  for (const [rule, query] of Object.entries(REGISTRY_RULES) as [RegistryRule, string][]) {
    const result = await pool.query<{ count: string }>(query);
    breaches[rule] = Number(result.rows[0]?.count);
  }
  return breaches;
}

export const NO_RULE_BREACHES = Object.fromEntries(Object.keys(REGISTRY_RULES).map((rule) => [rule, 0])) as Record<RegistryRule, number>;

export interface PendingOnDeactivated extends Record<string, unknown> {
  readonly loanId: string;
  readonly role: string;
  readonly transferRequestedAt: string;
  readonly deactivationRequestedAt: string | null;
  readonly deactivationStatus: string | null;
}

/** The loans that break 'deactivated loan with a pending transfer', with when each request was made (for the failure message). */
export async function pendingTransfersOnDeactivatedLoans(pool: pg.Pool): Promise<PendingOnDeactivated[]> {
  const result = await pool.query<PendingOnDeactivated>(`
    SELECT r.loan_id AS "loanId", r.role, to_char(r.created_at, 'HH24:MI:SS.MS') AS "transferRequestedAt",
      to_char(d.created_at, 'HH24:MI:SS.MS') AS "deactivationRequestedAt", d.status AS "deactivationStatus"
    FROM role_requests r JOIN loans l ON l.id = r.loan_id
    LEFT JOIN deactivation_requests d ON d.loan_id = r.loan_id
    WHERE r.state = 'PENDING' AND l.deactivated
    ORDER BY r.created_at`);
  return result.rows;
}
