import type { ApiError } from '@loyalty/client';

/** The admin page's view of a core failure: its message and its details by field. */
export interface CoreFailure {
  status: number;
  message: string;
  fieldErrors: Record<string, string>;
}

export function coreFailure(status: number, body: unknown): CoreFailure {
  const error = (body as { error?: ApiError } | undefined)?.error;
  const fieldErrors: Record<string, string> = {};
  for (const d of error?.details ?? []) {
    // `tasks[1].activityId` and `tasks.1.activityId` name the same input.
    const field = d.field?.replace(/\[(\d+)\]/g, '.$1');
    if (field && !fieldErrors[field]) fieldErrors[field] = d.message;
  }
  return { status, message: error?.message ?? `The loyalty service answered ${status}.`, fieldErrors };
}
