// The x-participant-id header of a product call, read once by the session hook (which looks the
// membership up in the same round trip as the session) and by the tenancy hook (which rules on it).
import type { FastifyRequest } from 'fastify';
import { PARTICIPANT_HEADER } from '../../domain/constants';

const PRODUCT_PREFIXES = ['/service-dart/secure/', '/service-dart/figure/secure/'];

/** Product calls act for an organization (the tenancy hook); identity-broker calls do not. */
export const isProductRoute = (routeUrl: string | undefined): boolean =>
  routeUrl !== undefined && PRODUCT_PREFIXES.some((prefix) => routeUrl.startsWith(prefix));

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ParticipantHeader =
  | { readonly kind: 'absent' }
  /** Sent more than once. */
  | { readonly kind: 'repeated' }
  /** Sent, but not a UUID. */
  | { readonly kind: 'malformed' }
  /** A UUID, lower-cased. */
  | { readonly kind: 'named'; readonly participantId: string };

export function participantHeaderOf(request: FastifyRequest): ParticipantHeader {
  const header = request.headers[PARTICIPANT_HEADER];
  if (Array.isArray(header)) return { kind: 'repeated' };
  if (typeof header !== 'string' || header.length === 0) return { kind: 'absent' };
  return UUID_PATTERN.test(header) ? { kind: 'named', participantId: header.toLowerCase() } : { kind: 'malformed' };
}
