// Inserts of the seed's small tables through drizzle (bounded by PostgreSQL's 65535 bind
// parameters per statement); the loan tables go through COPY (copy.ts).
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type * as schema from '../db/schema';

/** drizzle over the seed's one connection, inside its transaction. */
export type Tx = NodePgDatabase<typeof schema>;
export type Row<T extends PgTable> = T['$inferInsert'];

/** Stay well below PostgreSQL's 65535 bind parameters per statement. */
const MAX_PARAMETERS = 30_000;

export async function insertRows<T extends PgTable>(tx: Tx, table: T, rows: readonly Row<T>[], maxRows = 1000): Promise<void> {
  if (rows.length === 0) return;
  const columns = Math.max(1, Object.keys(rows[0] as object).length);
  const perInsert = Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMETERS / columns)));
  for (let i = 0; i < rows.length; i += perInsert) {
    await tx.insert(table).values(rows.slice(i, i + perInsert) as PgInsertValue<T>[]);
  }
}
