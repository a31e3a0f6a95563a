// Pools (deals). A pool is visible to an organization that owns it (pools.participant_id) or holds
// a role on one of its loans; to any other it does not exist. Its count and total amount cover the
// loans the organization may see, so they agree with the pool's asset list and CSV.
import type { Pool } from '../../contract/pools';
import type { Database } from './database';
import { poolOf } from './pg-pool';

export interface PoolFilter {
  readonly state?: string | undefined;
  /** Pools completed on or after this calendar date (yyyy-MM-dd). */
  readonly completedOnOrAfter?: string | undefined;
}

interface PoolRow {
  id: string;
  name: string;
  date_completed: string | null;
  count: number;
  total_amount: string;
}

/** Visible pools with their visible loans, newest completion first. */
export async function listVisiblePools(db: Database, participantId: string, filter: PoolFilter = {}): Promise<Pool[]> {
  const values: unknown[] = [participantId];
  const conditions: string[] = [];
  if (filter.state !== undefined) {
    values.push(filter.state);
    conditions.push(`p.state = $${values.length}`);
  }
  if (filter.completedOnOrAfter !== undefined) {
    values.push(filter.completedOnOrAfter);
    conditions.push(`p.date_completed >= $${values.length}::date`);
  }
  const { rows } = await poolOf(db).query<PoolRow>(
    `SELECT p.id, p.name, p.date_completed::text AS date_completed, count(l.id)::int AS count,
       coalesce(sum(l.note_amount), 0)::text AS total_amount
     FROM pools p
     LEFT JOIN pool_loans pl ON pl.pool_id = p.id
     LEFT JOIN loan_list_entries e ON e.participant_id = $1 AND e.loan_id = pl.loan_id
     LEFT JOIN loans l ON l.id = e.loan_id
     ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''}
     GROUP BY p.id
     HAVING p.participant_id = $1 OR count(e.loan_id) > 0
     ORDER BY p.date_completed DESC NULLS LAST, p.name, p.id`,
    values,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    count: row.count,
    totalAmount: Number(row.total_amount),
    dateCompleted: row.date_completed,
  }));
}

/** The pool when the organization may see it; undefined for a missing pool and a foreign one alike. */
export async function findVisiblePool(
  db: Database,
  participantId: string,
  poolId: string,
): Promise<{ id: string; name: string } | undefined> {
  const { rows } = await poolOf(db).query<{ id: string; name: string }>(
    `SELECT p.id, p.name FROM pools p
     WHERE p.id = $2 AND (p.participant_id = $1 OR EXISTS (
       SELECT 1 FROM pool_loans pl JOIN loan_list_entries e ON e.participant_id = $1 AND e.loan_id = pl.loan_id WHERE pl.pool_id = p.id))`,
    [participantId, poolId],
  );
  return rows[0];
}
