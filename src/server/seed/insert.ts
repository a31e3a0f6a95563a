// Bulk inserts for the seed. Small tables go through drizzle's insert (bounded by PostgreSQL's
// 65535 bind parameters); the big loan tables go column by column through unnest(), one array
// parameter per column, which is several times faster and has no row limit per statement.
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/database';

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
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

/**
 * INSERT ... SELECT * FROM unnest($1::type[], $2::type[], ...). Every row must carry the same
 * keys (those of the first row); columns left out take their defaults. Not for array columns.
 */
export async function insertColumnar<T extends PgTable>(tx: Tx, table: T, rows: readonly Row<T>[]): Promise<void> {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (!first) return;
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => key in first);
  const names = columns.map(([, column]) => sql.identifier(column.name));
  const arrays = columns.map(([key, column]) => {
    const type = column.getSQLType();
    if (type.endsWith(']')) throw new Error(`insertColumnar cannot take the array column ${column.name}`);
    const values = rows.map((row) => {
      const value = (row as Record<string, unknown>)[key];
      return value === null || value === undefined ? null : column.mapToDriverValue(value);
    });
    return sql`${sql.param(values)}::${sql.raw(type)}[]`;
  });
  await tx.execute(sql`insert into ${table} (${sql.join(names, sql`, `)}) select * from unnest(${sql.join(arrays, sql`, `)})`);
}
