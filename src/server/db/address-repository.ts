// The address autocomplete's reference table (address_references, never the loans): a prefix of
// its search key through the text_pattern_ops index, first ones in that index's (byte) order, so
// the scan stops after `limit` rows however many addresses share a short prefix.
import { sql } from 'drizzle-orm';
import type { Database } from './database';

export type AddressReference = {
  readonly street1: string;
  readonly street2: string | null;
  readonly city: string;
  readonly state: string;
  readonly zip: string;
};

const likePrefix = (key: string) => `${key.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** The first `limit` addresses whose search key starts with `key` (already addressSearchKey'd). */
export async function searchAddresses(db: Database, key: string, limit: number): Promise<AddressReference[]> {
  const result = await db.execute<AddressReference>(sql`
    SELECT street1, street2, city, state, zip FROM address_references
     WHERE search_key LIKE ${likePrefix(key)}
     ORDER BY search_key USING ~<~
     LIMIT ${limit}`);
  return result.rows;
}

/** Adds addresses (ON CONFLICT: an address already there is kept once); returns how many were new. */
export async function insertAddresses(db: Database, rows: readonly AddressReference[]): Promise<number> {
  if (rows.length === 0) return 0;
  const values = sql.join(
    rows.map((row) => sql`(${row.street1}, ${row.street2}, ${row.city}, ${row.state}, ${row.zip})`),
    sql`, `,
  );
  const result = await db.execute(
    sql`INSERT INTO address_references (street1, street2, city, state, zip) VALUES ${values} ON CONFLICT DO NOTHING`,
  );
  return result.rowCount ?? 0;
}
