// The per-account sign-in throttle, in PostgreSQL so every server shares it.
// Keyed by the lower-cased email whether or not an identity has it, so a throttled answer tells
// nothing about which emails exist. PostgreSQL lower-cases the key, as findIdentityByEmail does the
// lookup: with JavaScript's toLowerCase, 'İ' (U+0130) folded differently, so a spelling of one
// account's address could guess on where another spelling was throttled.
import { lte, sql } from 'drizzle-orm';
import type { Database } from './database';
import { signInThrottle } from './schema';

/** How long an account's count of password guesses runs before it starts again. */
export const SIGN_IN_ACCOUNT_WINDOW_MS = 15 * 60 * 1000;

const emailKey = (email: string) => sql`lower(${email.trim().slice(0, 320)})`;
const interval = (ms: number) => `${ms} milliseconds`;

/** An account's guesses in its current window, and how long until that window ends. */
export interface SignInAttemptCount {
  /** This guess included (1 when the window had passed). */
  readonly attempts: number;
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  readonly retryAfterSeconds: number;
}

/**
 * Counts one password guess at the account. One UPSERT: concurrent guesses on several servers
 * each get their own count, so no more than the limit are ever checked.
 */
export async function countSignInAttempt(db: Database, email: string, windowMs = SIGN_IN_ACCOUNT_WINDOW_MS): Promise<SignInAttemptCount> {
  const result = await db.execute<{ attempts: number; retry_after_seconds: number }>(sql`
    INSERT INTO sign_in_throttle AS t (email_key, attempts, window_started_at)
    VALUES (${emailKey(email)}, 1, now())
    ON CONFLICT (email_key) DO UPDATE SET
      attempts = CASE WHEN t.window_started_at <= now() - ${interval(windowMs)}::interval THEN 1 ELSE t.attempts + 1 END,
      window_started_at = CASE WHEN t.window_started_at <= now() - ${interval(windowMs)}::interval THEN now() ELSE t.window_started_at END
    RETURNING attempts,
      greatest(1, ceil(extract(epoch FROM t.window_started_at + ${interval(windowMs)}::interval - now())))::int AS retry_after_seconds`);
  const row = result.rows[0];
  return { attempts: Number(row?.attempts ?? 1), retryAfterSeconds: Number(row?.retry_after_seconds ?? Math.ceil(windowMs / 1000)) };
}

/** A successful password check: the account's count starts again. */
export async function clearSignInAttempts(db: Database, email: string): Promise<void> {
  await db.delete(signInThrottle).where(sql`${signInThrottle.emailKey} = ${emailKey(email)}`);
}

/** Rows whose window has passed (the periodic purge). */
export async function deleteStaleSignInAttempts(db: Database, windowMs = SIGN_IN_ACCOUNT_WINDOW_MS): Promise<void> {
  await db.delete(signInThrottle).where(lte(signInThrottle.windowStartedAt, sql`now() - ${interval(windowMs)}::interval`));
}
