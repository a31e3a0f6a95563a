// A JSON or form body must arrive within bodyTimeoutMs of its headers (408 and the connection
// closed otherwise). The request deadline (REQUEST_TIMEOUT_MS, 120 s) is sized for a 10 MB upload
// at a slow line; without this, a body that trickles a byte every few seconds (never silent long
// enough for the connection timeout) held its connection, and a slot of the server, that long.
// Uploads (routes that take multipart/form-data) keep the request deadline.
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../http-errors';

export const BODY_TOO_SLOW = 'The request body took too long to arrive';

export interface BodyDeadlineOptions {
  /** Milliseconds from the headers to the body's last byte (BODY_TIMEOUT_MS). */
  readonly bodyTimeoutMs: number;
}

const hasBody = (request: FastifyRequest): boolean =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

const isUploadRoute = (request: FastifyRequest): boolean =>
  ((request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes ?? []).includes('multipart/form-data');

async function bodyDeadlinePlugin(app: FastifyInstance, options: BodyDeadlineOptions): Promise<void> {
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.raw.complete || !hasBody(request) || isUploadRoute(request)) return payload;
    // The headers arrived when the request began (onRequest); its hooks' time counts too.
    const remainingMs = Math.max(0, options.bodyTimeoutMs - reply.elapsedTime);
    // The parser reads this stream: failing it answers 408 through the error handler, and the
    // security plugin's onError closes the connection of a body not fully read.
    const body = new PassThrough();
    const timer = setTimeout(() => body.destroy(new ApiError(408, BODY_TOO_SLOW)), remainingMs);
    const settle = () => clearTimeout(timer);
    payload.on('end', settle);
    reply.raw.on('close', settle);
    payload.on('error', (error) => {
      settle();
      body.destroy(error);
    });
    payload.pipe(body);
    return body;
  });
}

export default fp(bodyDeadlinePlugin, { name: 'body-deadline', fastify: '5.x' });
