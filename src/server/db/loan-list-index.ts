// The asset list index (migration 0001_loan_list): one row per (participant, loan) with the roles
// held as a bitmask and every sort key, kept exact by PostgreSQL triggers for every writer. Bulk
// loaders defer the triggers and rebuild once at the end, in the same transaction:
//
//   await deferLoanListIndex(tx);   // triggers skip from here on in this transaction
//   ... COPY loans, loan_parties ...
//   await refreshLoanListIndex(tx); // rebuilds loan_list_entries, _counts, _totals, _search and _items, ends the deferral
//   -- after COMMIT, outside the transaction: VACUUM (ANALYZE) of LOAN_LIST_TABLES
import { sql } from 'drizzle-orm';
import type { FilterableRole } from '../../contract/loans';
import { FILTERABLE_ROLES } from '../../domain/loan';

interface SqlRunner {
  execute(query: ReturnType<typeof sql>): Promise<unknown>;
}

/** The bit of each role in loan_list_entries.roles; the SQL function loan_role_bit(role) mirrors it. */
export const LOAN_ROLE_BITS: Readonly<Record<FilterableRole, number>> = {
  OWNER: 1,
  SERVICER: 2,
  CONTROLLER: 4,
  SUB_SERVICER: 8,
  SECURED_PARTY: 16,
  ORIGINATOR: 32,
};

/** Every role bit set: no role filter at all. */
export const ALL_ROLES_MASK = FILTERABLE_ROLES.reduce((mask, role) => mask | LOAN_ROLE_BITS[role], 0);

export function roleMask(roles: readonly FilterableRole[]): number {
  return roles.reduce((mask, role) => mask | LOAN_ROLE_BITS[role], 0);
}

/** Makes the list index triggers skip for the rest of the transaction (bulk loads); call refreshLoanListIndex before commit. */
export async function deferLoanListIndex(tx: SqlRunner): Promise<void> {
  await tx.execute(sql`SELECT loan_list_defer()`);
}

/** The derived tables; VACUUM them after a bulk load's commit so scans skip hint-bit writes and heap visits. */
export const LOAN_LIST_TABLES = [
  'loan_list_entries',
  'loan_list_counts',
  'loan_list_totals',
  'loan_list_search',
  'loan_list_items',
] as const;

/**
 * Rebuilds the list index from loans, loan_parties and participants (indexes dropped and built
 * again around the load, then ANALYZE) and ends a deferral. About two minutes at a million loans on the 2-core machine;
 * then VACUUM LOAN_LIST_TABLES after the commit.
 */
export async function refreshLoanListIndex(tx: SqlRunner): Promise<void> {
  await tx.execute(sql`SELECT loan_list_rebuild()`);
}
