// `npm run addresses:import -- FILE`: loads an address reference file into the autocomplete's
// address_references (OpenAddresses CSV layout: NUMBER, STREET, UNIT, CITY, REGION, POSTCODE, other
// columns ignored), streamed and written in batches; an address already there is kept once. Uses
// DATABASE_URL (or MIGRATION_DATABASE_URL), else the embedded PostgreSQL in DATA_DIR (default .data).
import fs from 'node:fs';
import { parse } from 'csv-parse';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../src/server/db/database';
import { insertAddresses, type AddressReference } from '../src/server/db/address-repository';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded-postgres';
import { isUsStateCode } from '../src/domain/us-states';

const BATCH = 1000;

/** One CSV record as a reference address; null when it lacks a number, street, city, state or ZIP. */
export function addressOfRecord(record: Record<string, string | undefined>): AddressReference | null {
  const value = (name: string) => (record[name] ?? record[name.toLowerCase()] ?? '').trim();
  const number = value('NUMBER');
  const street = value('STREET');
  const city = value('CITY');
  const state = value('REGION').toUpperCase();
  const zip = value('POSTCODE').replace(/\s/g, '');
  if (!number || !street || !city || !isUsStateCode(state) || !/^\d{5}(-?\d{4})?$/.test(zip)) return null;
  const unit = value('UNIT');
  return { street1: `${number} ${street}`, street2: unit || null, city, state, zip: zip.slice(0, 5) };
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file || file === '--help' || file === '-h') {
    console.log('Usage: npm run addresses:import -- FILE.csv   (OpenAddresses columns NUMBER, STREET, UNIT, CITY, REGION, POSTCODE)');
    process.exit(file ? 0 : 1);
  }
  const started = performance.now();
  let embedded: EmbeddedDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  try {
    let url = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
    if (!url) {
      embedded = await startEmbeddedPostgres(process.env.DATA_DIR ?? '.data');
      url = embedded.connectionString();
    }
    handle = connectDatabase(url, 2);
    await migrateDatabase(handle);
    const parser = fs.createReadStream(file).pipe(parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: true }));
    let batch: AddressReference[] = [];
    let read = 0;
    let skipped = 0;
    let added = 0;
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      read += 1;
      const address = addressOfRecord(record);
      if (!address) skipped += 1;
      else batch.push(address);
      if (batch.length >= BATCH) {
        added += await insertAddresses(handle.db, batch);
        batch = [];
        if (read % 100_000 === 0) console.log(`  ${read} records, ${added} added`);
      }
    }
    added += await insertAddresses(handle.db, batch);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${read} records: ${added} addresses added, ${read - skipped - added} already there, ${skipped} skipped (${seconds} s)`);
  } finally {
    await handle?.close();
    await embedded?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
