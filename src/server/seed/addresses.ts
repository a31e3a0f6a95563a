// The address autocomplete's reference table in the demo seed: every seeded property address, and
// at least twice as many other addresses of the same cities, so a suggestion never tells which
// addresses carry a registered loan. Written by PostgreSQL in two statements (3 million rows at the
// million-loan seed), deterministic (hashes of the row number, no random()).
import type pg from 'pg';
import { CITIES, STREET_NAMES, STREET_SUFFIXES } from './fixtures';

export async function seedAddressReferences(client: pg.ClientBase): Promise<number> {
  await client.query(`
    INSERT INTO address_references (street1, street2, city, state, zip)
    SELECT DISTINCT property_street1, property_street2, property_city, property_state, property_zip FROM loans
    ON CONFLICT DO NOTHING`);
  // A few more than twice as many, as some fall on an address already there.
  const others = await client.query(
    `WITH wanted AS (SELECT (count(*) * 2 + count(*) / 20 + 100)::int AS n FROM loans),
          cities AS (SELECT array_agg(c ORDER BY o) AS c, array_agg(s ORDER BY o) AS s, array_agg(z ORDER BY o) AS z
                       FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS t(c, s, z, o))
     INSERT INTO address_references (street1, street2, city, state, zip)
     SELECT (100 + abs(hashint4(i)) % 9800)::text || ' ' || ($4::text[])[1 + abs(hashint4(i + 1)) % cardinality($4::text[])]
              || ' ' || ($5::text[])[1 + abs(hashint4(i + 2)) % cardinality($5::text[])],
            CASE WHEN abs(hashint4(i + 3)) % 5 = 0 THEN 'Apt ' || (1 + abs(hashint4(i + 4)) % 40)::text END,
            cities.c[k], cities.s[k], lpad((cities.z[k] + abs(hashint4(i + 6)) % 9)::text, 5, '0')
       FROM wanted, cities, generate_series(1, wanted.n) AS i,
            LATERAL (SELECT 1 + abs(hashint4(i + 5)) % cardinality(cities.c) AS k) AS pick
     ON CONFLICT DO NOTHING`,
    [CITIES.map(([city]) => city), CITIES.map(([, state]) => state), CITIES.map(([, , zip]) => zip), STREET_NAMES, STREET_SUFFIXES],
  );
  return others.rowCount ?? 0;
}
