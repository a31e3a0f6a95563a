// What a service or repository throws when the product's rules refuse a request. They carry the
// caller-facing text (from src/domain) and no HTTP status: the error handler
// (plugins/error-handler.ts) is the one place that turns them into statuses.

export abstract class DomainError extends Error {}

/** Nothing the caller may see by that id: missing, or another organization's (the two alike). */
export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
}

/** Shown to the organization once (it took part in the record), no longer: told why, unlike NotFoundError. */
export class NoLongerHeldError extends DomainError {
  override readonly name = 'NoLongerHeldError';
}

/** The request breaks a rule of the product whatever the moment (not the organization's role to move, a message that takes no answer). */
export class RuleViolationError extends DomainError {
  override readonly name = 'RuleViolationError';
}

/** The record's present state forbids it (answered already, a request pending, the loan inactive). */
export class ConflictError extends DomainError {
  override readonly name = 'ConflictError';
}

/** The error as a DomainError, if it is one (not a type guard: any Error has a DomainError's shape). */
export const asDomainError = (error: unknown): DomainError | undefined => (error instanceof DomainError ? error : undefined);
