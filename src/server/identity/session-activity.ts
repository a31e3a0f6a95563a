// Sliding sessions without a write per request. A session's last use is
// written (sessions.last_seen_at) at most once per `everyMs` per session and server; this keeps
// in memory when each session was last written. The write changes only last_seen_at, which the
// sessions trigger of migration 0011 leaves unannounced, so caller caches stay warm.
//
// The idle timeout so counts from a recorded use at most `everyMs` older than the real last use:
// a session dies between `idle - everyMs` and `idle` after its last request.

/** How often a session's use is written: once a minute, or a tenth of a shorter idle timeout. */
export function touchIntervalFor(idleTimeoutMs: number): number {
  return Math.max(1, Math.min(60_000, Math.floor(idleTimeoutMs / 10)));
}

export class SessionActivity {
  private readonly writtenAt = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: { readonly everyMs: number; readonly maxEntries: number; readonly now?: () => number }) {
    this.now = options.now ?? Date.now;
  }

  /** True when the session's use should be written now; it then counts as written until `forget`. */
  claim(tokenHash: string): boolean {
    const now = this.now();
    const last = this.writtenAt.get(tokenHash);
    if (last !== undefined && now - last < this.options.everyMs) return false;
    // Re-inserted so the Map's order stays oldest-first for eviction.
    this.writtenAt.delete(tokenHash);
    this.writtenAt.set(tokenHash, now);
    while (this.writtenAt.size > this.options.maxEntries) {
      const oldest = this.writtenAt.keys().next();
      if (oldest.done) break;
      this.writtenAt.delete(oldest.value);
    }
    return true;
  }

  /** The write failed: the next request tries again. */
  forget(tokenHash: string): void {
    this.writtenAt.delete(tokenHash);
  }

  get size(): number {
    return this.writtenAt.size;
  }
}
