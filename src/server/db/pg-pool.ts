// The pg pool under drizzle, for SQL that drizzle's builder does not help with: hand-tuned list
// queries (one round trip, plans checked with EXPLAIN) and server-side cursors for streams.
import type pg from 'pg';
import type { Database } from './database';

export function poolOf(db: Database): pg.Pool {
  return (db as Database & { $client: pg.Pool }).$client;
}
