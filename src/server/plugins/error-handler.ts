// One error handler for the whole server: 4xx bodies say what was wrong, 5xx bodies say nothing.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorBody } from '../../contract/common';
import { isApiError } from '../http-errors';

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
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

async function errorHandlerPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(errorBody(400, describeValidation(error)));
    }
    // Thrown on purpose: its message is written for the caller.
    if (isApiError(error) && error.statusCode < 500) return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message));
    const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(statusCode).send(errorBody(statusCode, STATUS_CODES[statusCode] ?? 'Error'));
    }
    // Fastify's own 4xx errors (bad JSON, wrong content type, body too large) have safe messages.
    return reply.code(statusCode).send(errorBody(statusCode, error.message || (STATUS_CODES[statusCode] ?? 'Error')));
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler', fastify: '5.x' });
