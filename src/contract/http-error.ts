// The one error type for failed calls (SPEC section 7: status and body), shared by the client
// that raises it and the machines that react to it.
import { PERMISSION_REFUSALS } from '../domain/access';
import { TEXTS } from '../domain/texts';

export class HttpError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string) {
    super(`HTTP ${status}: ${body.slice(0, 200)}`);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
  }

  /** The server's `message`, when the body is our JSON error shape; else the raw body. */
  get serverMessage(): string {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') return parsed.message;
    } catch {
      // Not JSON: the body itself is the message.
    }
    return this.body;
  }
}

export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError;
export const isUnauthorized = (error: unknown): boolean => isHttpError(error) && error.status === 401;
export const isNotFound = (error: unknown): boolean => isHttpError(error) && error.status === 404;
/**
 * A 403 refuses one of two things, told apart by the body: the organization of x-participant-id
 * (SPEC section 8, the body says 'Invalid participant') or a role the caller lacks (a route
 * declared 'org-admin', 'registry-staff' or 'self-or-registry-staff': the body is one of
 * src/domain/access.ts PERMISSION_REFUSALS, never 'Invalid participant'). SPEC section 6 wants
 * the 'Invalid Permissions' page for the second on the users and participants calls: check
 * isPermissionRefusal before isInvalidParticipant, which still takes any 403 (SPEC section 8).
 */
export const isPermissionRefusal = (error: unknown): boolean =>
  isHttpError(error) && error.status === 403 && (Object.values(PERMISSION_REFUSALS) as string[]).includes(error.serverMessage);
/** 410: what was asked for was shown to this organization once, and no longer is (a role moved on). */
export const isGone = (error: unknown): boolean => isHttpError(error) && error.status === 410;
/** SPEC section 8: a 403, or any body that says 'Invalid participant'. */
export const isInvalidParticipant = (error: unknown): boolean =>
  isHttpError(error) && (error.status === 403 || error.body.includes(TEXTS.invalidParticipantBody));
