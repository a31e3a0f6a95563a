// writeTransaction against PostgreSQL: a real deadlock between two transactions ends with both
// committed (the one PostgreSQL rolled back runs again); other errors are not retried; a conflict
// that persists gives up after WRITE_ATTEMPTS.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Transaction } from '../../src/server/db/database';
import {
  isRetryableConflict,
  postgresErrorCode,
  retryOnConflict,
  WRITE_ATTEMPTS,
  writeTransaction,
} from '../../src/server/db/write-transaction';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  // The owner's pool: the test needs a table of its own (the application role may not create one).
  db = database.owner.db;
  await db.execute(sql`create table counters (id int primary key, value int not null)`);
});

afterAll(async () => {
  await database.close();
});

/** Raises a real PostgreSQL error with the given SQLSTATE inside the transaction. */
const raise = (tx: Transaction, code: string) =>
  tx.execute(sql.raw(`do $$ begin raise exception 'raised for the test' using errcode = '${code}'; end $$`));

describe('writeTransaction', () => {
  it('runs again the transaction PostgreSQL ended for a deadlock: both writers commit', async () => {
    await db.execute(sql`insert into counters values (1, 0), (2, 0)`);
    let attempts = 0;
    let holding = 0;
    let bothHolding!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHolding = resolve));
    // Each locks one row, waits until the other holds its row too, then asks for the other's: a deadlock.
    const writer = (first: number, second: number) =>
      writeTransaction(db, async (tx) => {
        attempts += 1;
        await tx.execute(sql`update counters set value = value + 1 where id = ${first}`);
        holding += 1;
        if (holding === 2) bothHolding();
        await barrier;
        await tx.execute(sql`update counters set value = value + 1 where id = ${second}`);
      });
    await Promise.all([writer(1, 2), writer(2, 1)]);
    // One ran once, the other twice: PostgreSQL rolled back one attempt, then it ran again.
    expect(attempts).toBe(3);
    const rows = await db.execute<{ id: number; value: number }>(sql`select id, value from counters order by id`);
    expect(rows.rows).toEqual([
      { id: 1, value: 2 },
      { id: 2, value: 2 },
    ]);
  });

  it('gives up after WRITE_ATTEMPTS when the conflict persists, with PostgreSQL error', async () => {
    let attempts = 0;
    const attempt = writeTransaction(db, async (tx) => {
      attempts += 1;
      await raise(tx, '40001');
    });
    const error = await attempt.catch((caught: unknown) => caught);
    expect(postgresErrorCode(error)).toBe('40001');
    expect(attempts).toBe(WRITE_ATTEMPTS);
  });

  it('does not run again for any other error, and keeps nothing of the failed attempt', async () => {
    let attempts = 0;
    const attempt = writeTransaction(db, async (tx) => {
      attempts += 1;
      await tx.execute(sql`insert into counters values (3, 0)`);
      await raise(tx, '23505');
    });
    const error = await attempt.catch((caught: unknown) => caught);
    expect(postgresErrorCode(error)).toBe('23505');
    expect(isRetryableConflict(error)).toBe(false);
    expect(attempts).toBe(1);
    const rows = await db.execute(sql`select 1 from counters where id = 3`);
    expect(rows.rows).toEqual([]);
  });

  it('answers what the work returns, on the first attempt when nothing conflicts', async () => {
    let attempts = 0;
    const value = await writeTransaction(db, async (tx) => {
      attempts += 1;
      const result = await tx.execute<{ answer: number }>(sql`select 42 as answer`);
      return result.rows[0]?.answer;
    });
    expect(value).toBe(42);
    expect(attempts).toBe(1);
  });

  it('runs again an autocommitted statement PostgreSQL ended for a deadlock (retryOnConflict)', async () => {
    await db.execute(sql`insert into counters values (11, 0), (12, 0)`);
    let statementRuns = 0;
    let transactionRuns = 0;
    // One statement locks row 11, then asks for 12; the transaction holds 12 meanwhile, then asks for 11.
    const statement = retryOnConflict(() => {
      statementRuns += 1;
      return db.execute(
        sql.raw(`do $$ begin
        update counters set value = value + 1 where id = 11;
        perform pg_sleep(0.2);
        update counters set value = value + 1 where id = 12;
      end $$`),
      );
    });
    const transaction = writeTransaction(db, async (tx) => {
      transactionRuns += 1;
      await tx.execute(sql`update counters set value = value + 1 where id = 12`);
      await tx.execute(sql`select pg_sleep(0.4)`);
      await tx.execute(sql`update counters set value = value + 1 where id = 11`);
    });
    await Promise.all([statement, transaction]);
    // PostgreSQL ended one of the two once; it ran again and both changes are in.
    expect(statementRuns + transactionRuns).toBe(3);
    const rows = await db.execute<{ id: number; value: number }>(sql`select id, value from counters where id > 10 order by id`);
    expect(rows.rows).toEqual([
      { id: 11, value: 2 },
      { id: 12, value: 2 },
    ]);
  });

  it('reads no SQLSTATE from errors that are not PostgreSQL’s', () => {
    expect(postgresErrorCode(new Error('plain'))).toBeUndefined();
    expect(postgresErrorCode(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(postgresErrorCode('40P01')).toBeUndefined();
    expect(isRetryableConflict(new Error('wrapped', { cause: Object.assign(new Error('pg'), { code: '40P01' }) }))).toBe(true);
  });
});
