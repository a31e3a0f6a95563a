// How many CSV downloads stream at once. Each holds a database connection (its cursor) for as long
// as its client takes to read, so a dozen downloads nobody reads used to take the whole pool and
// stall every other call of the server until the connections timed out. A server now streams at
// most CSV_STREAMS_PER_SERVER at once, over a pool of its own of as many connections (routes/
// loans.ts), so the main pool stays whole for everything else, and an identity at most
// CSV_STREAMS_PER_IDENTITY.

/** The CSV streams a server runs at once: the connections of its CSV pool. */
export const CSV_STREAMS_PER_SERVER = 4;
export const CSV_STREAMS_PER_IDENTITY = 2;
/** Seconds a refused caller is told to wait (Retry-After) when the server's streams are all busy. */
export const CSV_RETRY_AFTER_SECONDS = 5;

export const TOO_MANY_CSV_DOWNLOADS = `You have ${CSV_STREAMS_PER_IDENTITY} CSV downloads in progress: start another when one has finished.`;
export const CSV_DOWNLOADS_BUSY = 'The server is streaming as many CSV downloads as it can: try again in a few seconds.';

/** Why no slot was given: the identity's own downloads, or the server's. */
export type SlotRefusal = 'identity' | 'server';

export class StreamSlots {
  private taken = 0;
  private readonly byIdentity = new Map<string, number>();

  constructor(private readonly limits: { readonly perServer: number; readonly perIdentity: number }) {}

  /** A slot for `identity`: its release (idempotent; call it when the stream has closed), or why there is none. */
  acquire(identity: string): (() => void) | SlotRefusal {
    const mine = this.byIdentity.get(identity) ?? 0;
    if (mine >= this.limits.perIdentity) return 'identity';
    if (this.taken >= this.limits.perServer) return 'server';
    this.taken += 1;
    this.byIdentity.set(identity, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken -= 1;
      const left = (this.byIdentity.get(identity) ?? 1) - 1;
      if (left > 0) this.byIdentity.set(identity, left);
      else this.byIdentity.delete(identity);
    };
  }

  /** Slots in use (tests and diagnostics). */
  get inUse(): number {
    return this.taken;
  }
}
