// The asset list index (entries, search rows, items, day counts, totals) is derived data kept by
// triggers: after any sequence of writes it must equal what loan_list_rebuild() computes from
// loans, loan_parties and participants. This rebuilds it inside a transaction that is rolled
// back, and answers the rows that differ (at most a few of each kind), so a test can expect none.
// Needs the owner role (the rebuild truncates the tables).
import { sql } from 'drizzle-orm';
import type { Database } from '../../../src/server/db/database';
import { refreshLoanListIndex } from '../../../src/server/db/loan-list-index';

const SNAPSHOT = sql`
  select 'entry' as kind, to_jsonb(e)::text as row from loan_list_entries e
  union all select 'search', to_jsonb(s)::text from loan_list_search s
  union all select 'item', to_jsonb(i)::text from loan_list_items i
  union all select 'day count', to_jsonb(c)::text from loan_list_counts c where count <> 0
  union all select 'total', to_jsonb(t)::text from loan_list_totals t where count <> 0`;

class RolledBack extends Error {}

export interface LoanListDrift {
  /** Kept by the triggers, not computed by a rebuild. */
  readonly kept: string[];
  /** Computed by a rebuild, not kept by the triggers. */
  readonly rebuilt: string[];
}

const SHOWN = 5;

export async function loanListDrift(ownerDb: Database): Promise<LoanListDrift> {
  let drift: LoanListDrift = { kept: [], rebuilt: [] };
  await ownerDb
    .transaction(async (tx) => {
      const rows = async () => (await tx.execute<{ kind: string; row: string }>(SNAPSHOT)).rows.map((each) => `${each.kind} ${each.row}`);
      const kept = await rows();
      await refreshLoanListIndex(tx);
      const rebuilt = await rows();
      const counted = (list: string[]) => list.reduce((map, row) => map.set(row, (map.get(row) ?? 0) + 1), new Map<string, number>());
      const keptCounts = counted(kept);
      const rebuiltCounts = counted(rebuilt);
      const missingFrom = (from: Map<string, number>, other: Map<string, number>) =>
        [...from].filter(([row, count]) => (other.get(row) ?? 0) !== count).map(([row]) => row);
      drift = {
        kept: missingFrom(keptCounts, rebuiltCounts).slice(0, SHOWN),
        rebuilt: missingFrom(rebuiltCounts, keptCounts).slice(0, SHOWN),
      };
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return drift;
}

export const NO_DRIFT: LoanListDrift = { kept: [], rebuilt: [] };
