// The public servicer lookup's defences, configurable (config.ts LOOKUP_*; tests lower the floor and the work).
export interface ServicerLookupSettings {
  /** Every answer of the lookup takes at least this long (ms), found or not, valid or not. */
  readonly timeFloorMs: number;
  /** Lookups per client address in a window. */
  readonly clientLimit: number;
  readonly clientWindowMs: number;
  /** Lookups of one (last name, zip) in a window, from any address. */
  readonly nameZipLimit: number;
  readonly nameZipWindowMs: number;
  /** The proof of work: PBKDF2-SHA-256 iterations per try, and the highest counter the solver may have to reach. */
  readonly challengeCost: number;
  readonly challengeMaxCounter: number;
  /** How long a challenge may be solved and spent. */
  readonly challengeTtlMs: number;
}

export const DEFAULT_SERVICER_LOOKUP_SETTINGS: ServicerLookupSettings = {
  timeFloorMs: 400,
  clientLimit: 30,
  clientWindowMs: 60 * 60 * 1000,
  nameZipLimit: 10,
  nameZipWindowMs: 60 * 60 * 1000,
  // About a second of a laptop's WebCrypto; a scraper pays it per lookup.
  challengeCost: 1000,
  challengeMaxCounter: 2000,
  challengeTtlMs: 10 * 60 * 1000,
};
