import type { ApiError } from '@loyalty/client';

/** A core answer that was not a success, as the admin pages show it: its message and its details by field. */
export interface CoreFailure {
  status: number;
  message: string;
  fieldErrors: Record<string, string>;
  /** The core's error code and details as it sent them, for pages that word each refusal themselves. */
  code?: string;
  details?: ApiError['details'];
}

/** The core's error body (CONTRACT §2), as the typed client gives it for a failed call. */
export type CoreErrorBody = { error?: ApiError } | undefined;

export function coreFailure(status: number, body: CoreErrorBody): CoreFailure {
  const fieldErrors: Record<string, string> = {};
  for (const d of body?.error?.details ?? []) {
    // `tasks[1].activityId` and `tasks.1.activityId` name the same input.
    const field = d.field?.replace(/\[(\d+)\]/g, '.$1');
    if (field && !fieldErrors[field]) fieldErrors[field] = d.message;
  }
  return {
    status,
    message: body?.error?.message ?? `The loyalty service answered ${status}.`,
    fieldErrors,
    ...(body?.error ? { code: body.error.code, details: body.error.details } : {}),
  };
}

/** A 429 or 5xx: the service's state (an unreachable core answers 503 in the admin), not what was asked of it. */
export const isOutage = (status: number) => status === 429 || status >= 500;

/** A failure's message as a page says it: an outage in the merchant's words (`outage`), a refusal in the core's. */
export const failureMessage = (failure: Pick<CoreFailure, 'status' | 'message'>, outage: string): string =>
  isOutage(failure.status) ? outage : failure.message;

/**
 * A core failure a page cannot go on from, as the route's error: an outage marked as the core's,
 * which the admin's boundary says in the merchant's words (Shopify's own 5xx carry no such mark);
 * any other failure with the core's message.
 */
export function failureResponse(failure: Pick<CoreFailure, 'status' | 'message'>): Response {
  if (isOutage(failure.status)) return Response.json({ coreOutage: true, message: failure.message }, { status: failure.status });
  return new Response(failure.message, { status: failure.status });
}
