// The server's error for what only HTTP knows (no session, a body of the wrong type or size, a busy
// server): a handler or hook throws an ApiError on purpose, and the error handler turns it into an
// errorBodySchema body. A refusal by the product's rules is a domain error instead
// (domain-errors.ts). (The client's error is src/contract/http-error.ts.)
import { STATUS_CODES } from 'node:http';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get error(): string {
    return STATUS_CODES[this.statusCode] ?? 'Error';
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

export const AUTHENTICATION_REQUIRED = 'Authentication required';

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = AUTHENTICATION_REQUIRED) => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const tooManyRequests = (message: string) => new ApiError(429, message);
export const serviceUnavailable = (message: string) => new ApiError(503, message);
