// One error handler for the whole server: 4xx bodies say what was wrong, 5xx bodies say nothing.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../contract/common';
import { asDomainError, ConflictError, type DomainError, NoLongerHeldError, NotFoundError } from '../domain-errors';
import { isApiError } from '../http-errors';

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

export const BAD_URL_ENCODING = 'The request URL is not validly percent-encoded';
const URL_TOO_LONG = 'A part of the request URL is too long';
const HEADERS_TOO_LARGE = 'The request headers are too large';
const REQUEST_TIMEOUT = 'The request took too long to arrive';
const MALFORMED_REQUEST = 'The request is not valid HTTP';
export const UNSUPPORTED_MEDIA_TYPE = 'Unsupported Media Type';
/** An internal code (FST_ERR_..., ERR_..., HPE_...) is never shown to the caller. */
const INTERNAL_CODE = /\b(?:FST|ERR|HPE)_[A-Z0-9_]+/;

/** helmet's middleware (plugins/security.ts). */
export type SecurityHeadersMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** False when the query string holds a `%` that is not followed by a valid UTF-8 escape sequence. */
export function hasValidQueryEncoding(url: string): boolean {
  const start = url.indexOf('?');
  if (start === -1 || !url.includes('%', start)) return true;
  try {
    decodeURIComponent(url.slice(start + 1));
    return true;
  } catch {
    return false;
  }
}

/**
 * Fastify's `frameworkErrors`: errors the router raises before any hook runs (a badly encoded or
 * too long path). They get the app's body and, as no onRequest hook ran, the security headers here.
 */
export function frameworkErrorHandler(setSecurityHeaders: SecurityHeadersMiddleware) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const message =
      error.code === 'FST_ERR_BAD_URL'
        ? BAD_URL_ENCODING
        : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? URL_TOO_LONG
          : (STATUS_CODES[statusCode] ?? 'Error');
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed');
    setSecurityHeaders(request.raw, reply.raw, () => {
      void reply.code(statusCode).header('cache-control', 'no-store').send(errorBody(statusCode, message));
    });
  };
}

/** helmet's headers as fixed `name: value` lines, for answers written straight to the socket. */
export function securityHeaderLines(setSecurityHeaders: SecurityHeadersMiddleware): string {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  setSecurityHeaders({ headers: {} } as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return [...headers].map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

/**
 * Node's `clientError` (via Fastify's `clientErrorHandler`): the HTTP parser refused the request
 * (headers too large, malformed, too slow), so no hook or reply exists. A minimal response in the
 * app's body shape is written to the socket, without the parser's internal code.
 */
export function clientErrorHandler(securityHeaders: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [statusCode, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, HEADERS_TOO_LARGE]
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, REQUEST_TIMEOUT]
          : [400, MALFORMED_REQUEST];
    const body = JSON.stringify(errorBody(statusCode, message));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode] ?? 'Error'}\r\n` +
          'content-type: application/json; charset=utf-8\r\n' +
          `content-length: ${Buffer.byteLength(body)}\r\n` +
          'cache-control: no-store\r\n' +
          securityHeaders +
          'connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroy();
  };
}

/** "body.email: Invalid email address; query.limit: Too big" */
function describeValidation(error: FastifyError & { validation: { instancePath: string; message?: string }[] }): string {
  const where = error.validationContext ?? 'request';
  return error.validation
    .map((issue) => {
      const field = issue.instancePath.split('/').filter(Boolean).join('.');
      return `${field ? `${where}.${field}` : where}: ${issue.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/**
 * The status of a refusal by the product's rules. Never 403: SPEC section 8 makes the web app read
 * any 403 as an invalid participant; 403 is the access hook's (plugins/access.ts).
 */
export function statusOfDomainError(error: DomainError): number {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof NoLongerHeldError) return 410;
  if (error instanceof ConflictError) return 409;
  // RuleViolationError: the request itself is wrong.
  return 400;
}

async function errorHandlerPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(errorBody(400, describeValidation(error)));
    }
    // Thrown on purpose (a 4xx, or a 503 for a busy server): its message is written for the caller.
    if (isApiError(error)) return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message));
    const refused = asDomainError(error);
    if (refused) {
      const status = statusOfDomainError(refused);
      return reply.code(status).send(errorBody(status, refused.message));
    }
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(statusCode).send(errorBody(statusCode, STATUS_CODES[statusCode] ?? 'Error'));
    }
    // A body of a type the call does not take: say which it takes (its OpenAPI `consumes`, else JSON).
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes ?? ['application/json'];
      return reply.code(415).send(errorBody(415, `${UNSUPPORTED_MEDIA_TYPE}: send the body as ${consumes.join(' or ')}`));
    }
    // Fastify's own 4xx errors (bad JSON, wrong content type, body too large) have safe messages;
    // one that names an internal code gets the status text instead.
    const message = error.message && !INTERNAL_CODE.test(error.message) ? error.message : (STATUS_CODES[statusCode] ?? 'Error');
    return reply.code(statusCode).send(errorBody(statusCode, message));
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler', fastify: '5.x' });
