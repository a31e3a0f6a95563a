// Deterministic randomness for the demo seed: independent streams derived from one fixed seed,
// a stream label and an index, so each loan's data does not depend on chunk size or order.
// The generator is sfc32 (128-bit state). mulberry32 was tried first, but its state is a 32-bit
// counter: a million per-loan streams started on one cycle overlap and repeat UUIDs.

function hashLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Murmur3's finalizer: spreads nearby inputs (index 1, 2, 3...) over the whole 32-bit range. */
function mix32(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const HEX = '0123456789abcdef';
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const hex32 = (word: number): string =>
  (HEX_BYTES[word >>> 24] as string) + HEX_BYTES[(word >>> 16) & 0xff] + HEX_BYTES[(word >>> 8) & 0xff] + HEX_BYTES[word & 0xff];
const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.a = a >>> 0;
    this.b = b >>> 0;
    this.c = c >>> 0;
    this.d = d >>> 0;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** An independent stream for (seed, label, index). */
  static stream(seed: number, label: string, index = 0): Rng {
    const base = mix32(seed ^ hashLabel(label));
    const low = index % 0x100000000;
    const high = Math.floor(index / 0x100000000);
    return new Rng(mix32(base ^ low), mix32(base + 0x9e3779b9 + high), mix32(low + 0x7f4a7c15) ^ base, 1);
  }

  /** sfc32: the next unsigned 32-bit value. */
  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by relative weights (same length as items). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const weight of weights) total += weight;
    let roll = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      roll -= weights[i] ?? 0;
      if (roll < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }

  /** Characters drawn from an alphabet. */
  chars(length: number, alphabet = ALPHANUMERIC): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  digits(length: number): string {
    return this.chars(length, '0123456789');
  }

  /** A valid RFC 4122 version 4 UUID made from this stream. */
  uuid(): string {
    const hex = hex32(this.uint32()) + hex32(this.uint32()) + hex32(this.uint32()) + hex32(this.uint32());
    const variant = HEX[8 + (parseInt(hex[16] as string, 16) & 0x3)];
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}
