// Session tokens: the cookie holds 32 random bytes, the database only their SHA-256, so a
// leaked sessions table cannot be replayed as cookies.
import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSameOriginPath } from '../../domain/same-origin-path';

export const SESSION_COOKIE = 'registry_session';
/**
 * The session cookie's name over HTTPS (cookieSecure, production): browsers take a `__Host-` cookie
 * only when it is Secure, has Path=/ and no Domain, so no subdomain or plain-HTTP page can set or
 * shadow it. Over plain HTTP (development, tests) browsers refuse the prefix: SESSION_COOKIE.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The one name that setting, reading and clearing the session cookie use. */
export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** One-shot crypto.hash: runs on every request, where createHash's object costs several times more. */
export function hashSessionToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The token hash from the request's cookie, or undefined when there is no well-formed token. */
export function sessionTokenHashOf(request: FastifyRequest, options: { secure: boolean }): string | undefined {
  const token = request.cookies[sessionCookieName(options.secure)];
  return token && TOKEN_PATTERN.test(token) ? hashSessionToken(token) : undefined;
}

export function setSessionCookie(reply: FastifyReply, token: string, options: { secure: boolean; expiresAt: Date }): void {
  // No domain: the __Host- prefix requires none (host-only cookie).
  reply.setCookie(sessionCookieName(options.secure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    expires: options.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, options: { secure: boolean }): void {
  reply.clearCookie(sessionCookieName(options.secure), { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure });
}

/** The longest returnTo kept (the query string's field allows 2,048 characters: contract/identity.ts). */
const RETURN_TO_MAX_LENGTH = 2048;

/** A same-origin path to go back to after sign-in, or undefined for anything that could leave the site. */
export function safeReturnTo(value: unknown): string | undefined {
  return typeof value === 'string' && isSameOriginPath(value, RETURN_TO_MAX_LENGTH) ? value : undefined;
}
