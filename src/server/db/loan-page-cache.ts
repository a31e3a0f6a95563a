// The asset list's recent pages, as the JSON text sent (listLoanPageJson), exactly invalidated.
// An organization's users open the same views (the first page above all); from the cache a page
// costs no round trip, and the database, which all servers share, does the work once.
//
// Exactness, as for the caller cache (identity/caller-cache.ts): the cache is emptied (1) when a
// write transaction of this process commits (writeTransaction), and (2) on every server when the
// database reports a change to what a page reads (migration 0019: the list index's tables and
// pool membership, LISTEN/NOTIFY at commit, see db/caller-changes.ts). While that channel is
// down, nothing is cached. A page loaded across an emptying is not stored, so it cannot bring back what the
// emptying removed. Entries also end after `ttlMs` at the latest.
//
// The key holds the organization's id (the filter): a page is only ever sent to callers the
// route has authorized for that organization.

export interface LoanPageCacheOptions {
  /** Bytes of page text (and keys) kept at most, counted as UTF-16 (0 turns the cache off). */
  readonly maxBytes: number;
  /** The longest a page is reused. */
  readonly ttlMs: number;
  /** The clock (tests move it). */
  readonly now?: () => number;
}

interface Entry {
  readonly page: string;
  readonly bytes: number;
  readonly expiresAt: number;
}

interface Loading {
  readonly page: Promise<string>;
  readonly generation: number;
}

export class LoanPageCache {
  /** In use order: the first is the least recently used. */
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Loading>();
  private bytes = 0;
  private generation = 0;
  private enabled = false;
  private readonly now: () => number;

  constructor(private readonly options: LoanPageCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Starts (true) or stops (false) caching: only while changes elsewhere can reach it. */
  setEnabled(enabled: boolean): void {
    this.clear();
    this.enabled = enabled && this.options.maxBytes > 0;
  }

  /** Forgets every page, including loads still under way. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes held (UTF-16 code units x 2 of pages and keys). */
  get byteSize(): number {
    return this.bytes;
  }

  /** The page of `key`, from the cache or from `load` (concurrent calls for one key share one load). */
  async get(key: string, load: () => Promise<string>): Promise<string> {
    if (!this.enabled) return load();
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      if (cached.expiresAt > this.now()) {
        this.entries.set(key, cached);
        return cached.page;
      }
      this.bytes -= cached.bytes;
    }
    const pending = this.loading.get(key);
    if (pending && pending.generation === this.generation) return pending.page;

    const generation = this.generation;
    const page = load();
    this.loading.set(key, { page, generation });
    try {
      const text = await page;
      if (generation === this.generation) this.store(key, text);
      return text;
    } finally {
      if (this.loading.get(key)?.page === page) this.loading.delete(key);
    }
  }

  private store(key: string, page: string): void {
    const bytes = 2 * (key.length + page.length);
    if (bytes > this.options.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.bytes;
    }
    this.entries.set(key, { page, bytes, expiresAt: this.now() + this.options.ttlMs });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
