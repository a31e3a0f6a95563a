// The address autocomplete of `npm run bench`: GET /address-lookup/api/v1/addresses over the
// reference table (3 million addresses at the million-loan seed), at the run's concurrency, with
// partial addresses of 6 or more characters as people type them: starts of addresses (the house
// number and some of the street) and pieces from the middle (a street name, a street and its
// suffix, a city and state), spread over the table. A data folder seeded before the table existed
// holds loans but no addresses: the seed's own statement fills it first (its time is reported).
import pg from 'pg';
import { PATHS, SERVICER_LOOKUP_PATHS } from '../src/contract/paths';
import { seedAddressReferences } from '../src/server/seed/addresses';
import { httpScenario, type HttpRequestSpec, type HttpScenarioSpec } from './bench-load';

export const ADDRESS_SCENARIO = 'addresses: suggestions (6+ characters)';
/** The same load on /healthz just before: what the machine itself allows this run (no goal). */
export const ADDRESS_YARDSTICK_SCENARIO = 'addresses: healthz yardstick';
/** The goal's scale: the million-loan seed's reference table; below it the goal is skipped. */
export const ADDRESS_SCALE = 3_000_000;
/** Partial addresses of each kind the scenario cycles through. */
const TERMS_PER_KIND = 24;

export interface AddressBenchData {
  readonly rows: number;
  /** Set when this run filled the table (a folder seeded before it existed). */
  readonly filled?: { readonly rows: number; readonly seconds: number };
  readonly prefixes: readonly string[];
  readonly pieces: readonly string[];
}

export async function addressBenchData(connectionString: string): Promise<AddressBenchData> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const count = async () =>
      (await client.query<{ count: number }>('SELECT count(*)::int AS count FROM address_references')).rows[0]?.count ?? 0;
    let filled: AddressBenchData['filled'];
    if ((await count()) === 0) {
      const started = performance.now();
      await seedAddressReferences(client);
      await client.query('ANALYZE address_references');
      filled = { rows: await count(), seconds: (performance.now() - started) / 1000 };
    }
    const rows = await count();
    // Addresses spread over the table (every n-th id), each cut as a person types it.
    const sample = (
      await client.query<{ street1: string; city: string; state: string }>(
        `SELECT street1, city, state FROM address_references
          WHERE id % greatest(1, (SELECT max(id) FROM address_references) / $1) = 0 ORDER BY id LIMIT $1`,
        [TERMS_PER_KIND],
      )
    ).rows;
    const prefixes = sample.map((row, index) => {
      // 6 characters and up: "123 Ma", "1234 Maple", "123 Maple Ave".
      const length = Math.min(row.street1.length, 6 + (index % 3) * 4);
      return row.street1.slice(0, length);
    });
    const pieces = sample.map((row, index) => {
      const words = row.street1.split(' ').slice(1);
      if (index % 3 === 0) return `${row.city} ${row.state}`;
      if (index % 3 === 1) return words.join(' ');
      return (words[0] ?? row.city).length >= 6 ? (words[0] ?? row.city) : words.join(' ');
    });
    return { rows, ...(filled ? { filled } : {}), prefixes, pieces: pieces.filter((piece) => piece.length >= 6) };
  } finally {
    await client.end();
  }
}

/** One scenario: the starts and the pieces in turn. */
export function addressScenario(baseUrl: string, data: AddressBenchData): HttpScenarioSpec {
  const terms = data.prefixes.flatMap((prefix, index) => [prefix, ...(data.pieces[index] ? [data.pieces[index]] : [])]);
  return {
    kind: 'http',
    name: ADDRESS_SCENARIO,
    groups: terms.map((term): HttpRequestSpec[] => [
      {
        method: 'GET',
        url: `${baseUrl}${SERVICER_LOOKUP_PATHS.addresses}?${new URLSearchParams({ partialAddress: term }).toString()}`,
        headers: {},
        expectStatus: 200,
      },
    ]),
  };
}

/** /healthz at the same load: on a shared machine, tells the neighbours' share from the route's. */
export const addressYardstick = (baseUrl: string): HttpScenarioSpec =>
  httpScenario(ADDRESS_YARDSTICK_SCENARIO, { method: 'GET', url: baseUrl + PATHS.health, headers: {}, expectStatus: 200 });
