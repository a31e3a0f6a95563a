// Every write transaction of the server runs through `writeTransaction`. PostgreSQL may end one
// with a deadlock (40P01) or a serialization failure (40001) when it meets a concurrent one on the
// rows its triggers keep (the asset list's counts, message_counts): the transaction is then rolled
// back whole, and running it again is what PostgreSQL's documentation asks of the application.
// The writes take their locks in one order (loan, message_counts, the list's counts) so this stays
// rare; without it each such meeting answered 500.
import type { Database, Transaction } from './database';

/** SQLSTATEs after which the transaction was rolled back and may simply run again. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** How many times a transaction runs at most. */
export const WRITE_ATTEMPTS = 3;

/** The SQLSTATE of a PostgreSQL error, also when drizzle wrapped it (its `cause`). */
export function postgresErrorCode(error: unknown): string | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code } = current as Error & { code?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export function isRetryableConflict(error: unknown): boolean {
  const code = postgresErrorCode(error);
  return code !== undefined && RETRYABLE_CODES.has(code);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` again when PostgreSQL rolled it back for a deadlock or a serialization failure
 * (WRITE_ATTEMPTS times in all, after a short random pause so the two do not meet again). `attempt`
 * must be one transaction or one autocommitted statement: it may run more than once.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let count = 1; ; count += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (count >= WRITE_ATTEMPTS || !isRetryableConflict(error)) throw error;
      await pause(5 + Math.random() * 20 * count);
    }
  }
}

/** What runs after each write transaction on a database commits, by database. */
const committedListeners = new WeakMap<Database, Set<() => void>>();

/**
 * Calls `listener` after each writeTransaction on `db` commits, before the writer goes on: a cache
 * of this process sees its own writes at once (other processes' writes reach it by NOTIFY).
 * Answers the function that stops it.
 */
export function onWriteCommitted(db: Database, listener: () => void): () => void {
  const listeners = committedListeners.get(db) ?? new Set();
  committedListeners.set(db, listeners);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Runs `work` in a transaction, again after a deadlock or serialization failure (retryOnConflict). */
export async function writeTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const result = await retryOnConflict(() => db.transaction(work));
  committedListeners.get(db)?.forEach((listener) => listener());
  return result;
}
