// Indexes and constraints around a bulk load. Loading a million loans into tables whose primary
// keys are random UUIDs and whose foreign keys are checked row by row is several times slower
// than loading bare tables and building each index once, by sorting, afterwards. The definitions
// are read from the catalog (pg_get_indexdef, pg_get_constraintdef) before they are dropped and
// replayed as they were, so the migrations stay the one place they are written. Everything runs
// in the seed's transaction: a failure rolls the drops back too.
import type pg from 'pg';

export interface SavedIndexes {
  /** Foreign keys on or into the tables, restored last (each validated in one pass). */
  readonly foreignKeys: readonly Definition[];
  /** Primary keys, unique and exclusion constraints of the tables. */
  readonly keys: readonly Definition[];
  /** Plain indexes of the tables (not behind a constraint), as CREATE INDEX statements. */
  readonly indexes: readonly { name: string; definition: string }[];
}

interface Definition {
  readonly table: string;
  readonly name: string;
  readonly definition: string;
}

const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;

/** Drops the indexes and constraints of `tables` (and foreign keys into them); returns how to restore them. */
export async function dropIndexes(client: pg.ClientBase, tables: readonly string[]): Promise<SavedIndexes> {
  const constraints = await client.query<{ table: string; name: string; definition: string; type: string }>(
    `SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition, c.contype AS type
       FROM pg_constraint c
      WHERE (c.contype IN ('p', 'u', 'x', 'f') AND c.conrelid = ANY($1::regclass[]))
         OR (c.contype = 'f' AND c.confrelid = ANY($1::regclass[]))
      ORDER BY c.conrelid::regclass::text, c.conname`,
    [tables],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u', 'x'))
      ORDER BY 1`,
    [tables],
  );
  const saved: SavedIndexes = {
    foreignKeys: constraints.rows.filter((row) => row.type === 'f'),
    keys: constraints.rows.filter((row) => row.type !== 'f'),
    indexes: indexes.rows,
  };
  for (const constraint of [...saved.foreignKeys, ...saved.keys]) {
    await client.query(`ALTER TABLE ${constraint.table} DROP CONSTRAINT ${quote(constraint.name)}`);
  }
  for (const index of saved.indexes) await client.query(`DROP INDEX ${index.name}`);
  return saved;
}

/** Builds again what dropIndexes dropped, with the same names and definitions. */
export async function restoreIndexes(client: pg.ClientBase, saved: SavedIndexes): Promise<void> {
  for (const constraint of saved.keys) {
    await client.query(`ALTER TABLE ${constraint.table} ADD CONSTRAINT ${quote(constraint.name)} ${constraint.definition}`);
  }
  for (const index of saved.indexes) await client.query(index.definition);
  for (const constraint of saved.foreignKeys) {
    await client.query(`ALTER TABLE ${constraint.table} ADD CONSTRAINT ${quote(constraint.name)} ${constraint.definition}`);
  }
}
