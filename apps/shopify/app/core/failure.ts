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
