// Password hashing with node:crypto scrypt. The stored string carries its own salt and cost
// parameters, so the cost can be raised later without invalidating existing hashes.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PREFIX = 'scrypt';
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * N=2^17, r=8, p=1: OWASP's minimum for scrypt, 128 MiB and a few hundred
 * milliseconds per hash. Older hashes (N=2^15) still verify and are rehashed at the next sign-in.
 */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function memoryFor(params: { N: number; r: number }): number {
  // scrypt needs 128 * N * r bytes (128 MiB at the default); Node refuses anything above maxmem
  // (32 MiB by default), so it is given twice that room.
  return 256 * params.N * params.r;
}

/** `scrypt$N$r$p$<salt base64url>$<key base64url>` */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_LENGTH, { ...params, maxmem: memoryFor(params) });
  return [PREFIX, params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((value) => Number.isInteger(value) && value > 0) || N > 2 ** 20) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scrypt(password, salt, expected.length, { N, r, p, maxmem: memoryFor({ N, r }) });
  return timingSafeEqual(actual, expected);
}

/** The cost parameters of a stored hash, or undefined when it is not one of ours. */
export function scryptParamsOf(stored: string): ScryptParams | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  return [N, r, p].every((value) => Number.isInteger(value) && value > 0) ? { N, r, p } : undefined;
}

/** True when a stored hash costs less than `target` in any parameter: it is rehashed at the next sign-in. */
export function needsRehash(stored: string, target: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const params = scryptParamsOf(stored);
  return !params || params.N < target.N || params.r < target.r || params.p < target.p;
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * Spends the same time as a real check, for sign-ins with an unknown email, so response time
 * does not reveal which emails have an identity. `params` is the cost every stored hash is
 * brought to at sign-in (the default in production).
 */
export async function burnPasswordCheck(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<void> {
  const key = `${params.N}$${params.r}$${params.p}`;
  let dummyHash = dummyHashes.get(key);
  if (!dummyHash) {
    dummyHash = hashPassword(randomBytes(16).toString('hex'), params);
    dummyHashes.set(key, dummyHash);
  }
  await verifyPassword(password, await dummyHash);
}
