/** Typed API errors with stable codes (CONTRACT §2); one middleware renders them. */
export interface ErrorDetail {
  field?: string;
  code: string;
  message: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const make =
  (status: number, code: string, fallback: string) =>
  (message = fallback, details: ErrorDetail[] = []) =>
    new ApiError(status, code, message, details);

export const invalidInput = make(400, 'invalid_input', 'The request body is invalid.');
export const invalidQuery = make(400, 'invalid_query', 'A query parameter is invalid.');
export const unauthenticated = make(401, 'unauthenticated', 'Missing or invalid credentials.');
export const forbidden = make(403, 'forbidden', 'These credentials may not perform this operation.');
export const notFound = make(404, 'not_found', 'Not found.');
/** 405 with the `Allow` header RFC 9110 requires: the methods the path offers. */
export function methodNotAllowed(allowed: readonly string[], message = 'This operation is not offered on this resource.'): ApiError {
  return new ApiError(405, 'method_not_allowed', message, [], { allow: allowed.join(', ') });
}
export const conflict = make(409, 'conflict', 'The request conflicts with the current state.');
export const duplicateUniqueIdentifier = make(
  409,
  'duplicate_unique_identifier',
  'A log with this uniqueIdentifier already exists; it was not aggregated again.',
);
export const nothingToReverse = make(409, 'nothing_to_reverse', 'Nothing of this log is left to reverse.');
export const insufficientPoints = make(409, 'insufficient_points', 'The member does not have enough points.');
export const notRedeemable = make(409, 'not_redeemable', 'This reward cannot be redeemed for points.');
export const notEarnable = make(409, 'not_earnable', 'This cannot earn points now.');
export const alreadyFollowed = make(409, 'already_followed', 'The member has followed this profile for points already.');
export const birthdayAlreadySet = make(409, 'birthday_already_set', 'A birthday is set already; the shop can change it.');
export const notReversible = make(409, 'not_reversible', 'Nothing of this point entry is left to take back.');
export const rewardLogNotIssued = make(409, 'reward_log_not_issued', 'This reward log is not issued: it is pending or revoked.');
export const payloadTooLarge = make(413, 'payload_too_large', 'The request body is too large.');
export const unsupportedMediaType = make(415, 'unsupported_media_type', 'Unsupported content type.');

/** 503 with Retry-After: retryable, like 429; never a 500. */
export function unavailable(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError(503, 'unavailable', message, [], { 'retry-after': String(retryAfterSeconds) });
}

export function rateLimited(retryAfterSeconds: number): ApiError {
  return new ApiError(429, 'rate_limited', 'Too many requests.', [], { 'retry-after': String(retryAfterSeconds) });
}

/** What PostgreSQL says of a failed statement: its SQLSTATE and, for a constraint, which one. */
export interface DatabaseError {
  code: string;
  constraint?: string;
}

/** The error as PostgreSQL reported it, when it is one (node-postgres errors carry a string `code`). */
export function databaseError(err: unknown): DatabaseError | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err) || typeof err.code !== 'string') return undefined;
  const constraint = 'constraint' in err && typeof err.constraint === 'string' ? err.constraint : undefined;
  return { code: err.code, constraint };
}
