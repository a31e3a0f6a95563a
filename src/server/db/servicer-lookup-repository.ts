// The public servicer lookup's data: the active loans at one normalised property address (the
// loans_address_key_idx probe, then the names compared by the caller), the limits every server
// shares, the spent proof-of-work challenges, the record of lookups, and the shared secret.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from './database';

export interface LookupAddress {
  readonly street1: string;
  readonly street2: string | null;
  readonly state: string;
  readonly zip: string;
}

/** A candidate loan: its borrower names stay on the server (the route compares, never answers them). */
export interface LookupCandidate {
  readonly uli: string;
  readonly loanType: string;
  readonly loanNumber: string;
  readonly lastNames: readonly string[];
  readonly servicerName: string | null;
  readonly servicerUrl: string | null;
  readonly servicerCity: string | null;
  readonly servicerState: string | null;
  readonly servicerPhone: string | null;
}

/** More loans than this at one address is not a property, it is a probe: the rest are not read. */
const MAX_CANDIDATES = 50;

/** The active loans whose property address has the same key (registry_address_key, migration 0023). */
export async function findActiveLoansAtAddress(db: Database, address: LookupAddress): Promise<LookupCandidate[]> {
  const result = await db.execute<{
    uli: string;
    loan_type: string;
    loan_number: string;
    last_names: string[];
    servicer_name: string | null;
    url: string | null;
    city: string | null;
    state: string | null;
    phone_number: string | null;
  }>(sql`
    SELECT l.uli, l.loan_type, l.loan_number,
           array_prepend(l.borrower_last_name, ARRAY(
             SELECT party ->> 'lastName' FROM jsonb_array_elements(l.additional_parties) AS party
              WHERE party ->> 'partyType' = 'COBORROWER' AND party ->> 'lastName' IS NOT NULL)) AS last_names,
           coalesce(p.name, s.name) AS servicer_name, p.url, p.city, p.state, p.phone_number
      FROM loans l
      LEFT JOIN loan_parties s ON s.loan_id = l.id AND s.role = 'SERVICER'
      LEFT JOIN participants p ON p.id = s.participant_id
     WHERE l.property_address_key = registry_address_key(${address.street1}, ${address.street2}, ${address.state}, ${address.zip})
       AND l.status = 'Active' AND NOT l.deactivated
     ORDER BY l.uli
     LIMIT ${MAX_CANDIDATES}`);
  return result.rows.map((row) => ({
    uli: row.uli,
    loanType: row.loan_type,
    loanNumber: row.loan_number,
    lastNames: row.last_names,
    servicerName: row.servicer_name,
    servicerUrl: row.url,
    servicerCity: row.city,
    servicerState: row.state,
    servicerPhone: row.phone_number,
  }));
}

export interface LimitCount {
  readonly key: string;
  /** This call included (1 when the window had passed). */
  readonly count: number;
  readonly retryAfterSeconds: number;
}

/**
 * Counts one call against each key in its fixed window, in one statement (every server shares
 * the counts; concurrent calls each get their own). Keys are sorted so two calls never deadlock.
 */
export async function countLookup(db: Database, keys: readonly string[], windowMs: number): Promise<LimitCount[]> {
  const sorted = [...new Set(keys)].sort();
  const window = `${windowMs} milliseconds`;
  const counted = await db.execute<{ key: string; count: number; retry_after_seconds: number }>(sql`
    INSERT INTO lookup_limits AS t (key, window_start, count)
    SELECT key, now(), 1 FROM unnest(ARRAY[${sql.join(
      sorted.map((key) => sql`${key}`),
      sql`, `,
    )}]::text[]) AS key
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN t.window_start <= now() - ${window}::interval THEN 1 ELSE t.count + 1 END,
      window_start = CASE WHEN t.window_start <= now() - ${window}::interval THEN now() ELSE t.window_start END
    RETURNING key, count,
      greatest(1, ceil(extract(epoch FROM t.window_start + ${window}::interval - now())))::int AS retry_after_seconds`);
  return counted.rows.map((row) => ({ key: row.key, count: Number(row.count), retryAfterSeconds: Number(row.retry_after_seconds) }));
}

/** Marks a proof-of-work challenge spent; false when it already was (a replay). Forgets the expired ones. */
export async function spendChallenge(db: Database, id: string, expiresAt: Date): Promise<boolean> {
  await db.execute(sql`DELETE FROM lookup_challenges WHERE expires_at < now() - interval '1 minute'`);
  const result = await db.execute<{ id: string }>(sql`
    INSERT INTO lookup_challenges (id, expires_at) VALUES (${id}, ${expiresAt.toISOString()}::timestamptz)
    ON CONFLICT (id) DO NOTHING RETURNING id`);
  return result.rows.length === 1;
}

export interface LookupRecord {
  readonly clientAddress: string;
  readonly street1: string;
  readonly street2: string | null;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
  readonly found: boolean;
  /** Why the lookup did not run: null when it ran. */
  readonly refusal: 'limited' | 'challenge' | null;
}

/** Records a lookup for the operators: never the borrower's name. */
export async function recordLookup(db: Database, record: LookupRecord): Promise<void> {
  await db.execute(sql`
    INSERT INTO servicer_lookups (client_address, street1, street2, city, state, zip, found, refusal)
    VALUES (${record.clientAddress}, ${record.street1}, ${record.street2}, ${record.city}, ${record.state}, ${record.zip},
            ${record.found}, ${record.refusal})`);
}

/** A secret every server shares: made by the first server that asks, read by the others. */
export async function sharedSecret(db: Database, name: string): Promise<string> {
  const candidate = randomBytes(32).toString('base64url');
  const result = await db.execute<{ value: string }>(sql`
    WITH made AS (
      INSERT INTO server_secrets (name, value) VALUES (${name}, ${candidate}) ON CONFLICT (name) DO NOTHING RETURNING value)
    SELECT value FROM made UNION ALL SELECT value FROM server_secrets WHERE name = ${name} LIMIT 1`);
  const value = result.rows[0]?.value;
  if (!value) throw new Error(`server secret ${name} could not be read`);
  return value;
}
