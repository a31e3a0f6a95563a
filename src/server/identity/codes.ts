// Secrets of the hosted identity pages: flow tokens (the table keeps their SHA-256), the 6-digit
// codes sent by mail or SMS (kept as an HMAC keyed by their flow, compared in constant time) and
// recovery codes.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_DIGITS, RECOVERY_CODE_COUNT } from '../../domain/security-factors';

export const newFlowToken = (): string => randomBytes(32).toString('base64url');
export const hashFlowToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const FLOW_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newVerificationCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** The stored form of a code: an HMAC keyed by its flow's id, so one table row's hash says nothing of another's. */
export function hashVerificationCode(flowId: string, code: string): string {
  return createHmac('sha256', flowId).update(code).digest('hex');
}

/** Whether the typed code is the one sent: the two hashes compared in constant time. */
export function verificationCodeMatches(flowId: string, typed: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const typedHash = Buffer.from(hashVerificationCode(flowId, typed.replace(/\s/g, '')), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return typedHash.length === stored.length && timingSafeEqual(typedHash, stored);
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of two groups of five letters and digits (about 48 bits each), as shown once. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code's stored form: lower case, no separators, SHA-256. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .digest('hex');
}
