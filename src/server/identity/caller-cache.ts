// A short-lived, exactly invalidated cache of who is calling (session -> identity, user and
// membership of the named organization). Every product call needs that answer before its own
// query; from the cache it costs no round trip, which at a million loans is a third of a list
// call's time.
//
// Exactness: the cache is emptied (1) on this server before any write request answers, and (2) on
// every server when the database reports a change to sessions, identities, users, memberships or
// organizations (LISTEN/NOTIFY, see db/caller-changes.ts). While that channel is down, nothing is
// cached. A lookup that started before an emptying is not stored, so it cannot bring back what
// the emptying removed. Entries also end with their session (its absolute end, or its idle end as
// of its last recorded use) and after `ttlMs` at the latest.
import type { SessionCaller } from '../db/identity-repository';

export interface CallerCacheOptions {
  /** The longest an answer is reused; 0 turns the cache off. */
  readonly ttlMs: number;
  /** Entries kept at most (the oldest go first). */
  readonly maxEntries: number;
  /** The clock (tests move it). */
  readonly now?: () => number;
}

export type CallerLoader = () => Promise<SessionCaller | undefined>;

interface Entry {
  readonly caller: Promise<SessionCaller | undefined>;
  readonly expiresAt: number;
}

export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private enabled = false;
  private readonly now: () => number;

  constructor(private readonly options: CallerCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts (true) or stops (false) caching: only while changes elsewhere can reach it. */
  setEnabled(enabled: boolean): void {
    this.clear();
    this.enabled = enabled && this.options.ttlMs > 0;
  }

  /** Forgets every answer, including lookups still under way. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The caller of a session token hash and named organization (null: none named). */
  async get(tokenHash: string, participantId: string | null, load: CallerLoader): Promise<SessionCaller | undefined> {
    if (!this.enabled) return load();
    const key = `${tokenHash}\u0000${participantId ?? ''}`;
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.caller;
    if (cached) this.entries.delete(key);

    const generation = this.generation;
    const caller = load();
    // Concurrent calls of one session (a screen's parallel requests) share one lookup.
    this.entries.set(key, { caller, expiresAt: now + this.options.ttlMs });
    this.evictOverflow();
    try {
      const found = await caller;
      if (generation !== this.generation || !found) {
        this.forget(key, caller);
      } else {
        const expiresAt = Math.min(now + this.options.ttlMs, found.sessionExpiresAt.getTime());
        if (this.entries.get(key)?.caller === caller) this.entries.set(key, { caller, expiresAt });
      }
      return found;
    } catch (error) {
      this.forget(key, caller);
      throw error;
    }
  }

  private forget(key: string, caller: Entry['caller']): void {
    if (this.entries.get(key)?.caller === caller) this.entries.delete(key);
  }

  private evictOverflow(): void {
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.entries.delete(oldest.value);
    }
  }
}
