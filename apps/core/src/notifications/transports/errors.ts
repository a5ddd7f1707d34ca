/** A message that is not sent, by design: the member cannot be reached on the channel. Recorded as `skipped`. */
export class SkipSend extends Error {}

/**
 * A send that failed. `permanent` failures (refused credentials, a rejected message) are not retried:
 * the same request would fail again. Others (a provider answering 5xx or 429, a network error, a
 * time-out) are retried with backoff, or later when the provider's `Retry-After` asked for longer
 * (`retryAfterMs`).
 */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * A message the provider took: its id, or, when the provider's 2xx answer could not be read, no id
 * and a note saying so. A 2xx means the message went out: sending it again would send it twice.
 */
export interface Sent {
  messageId: string | null;
  note: string | null;
}

/** A provider's answer to a message it took: its id, else a note that the answer named none. */
export const sentAs = (messageId: string | undefined, what: string): Sent =>
  messageId ? { messageId, note: null } : { messageId: null, note: `${what} took the message but answered without its id.` };

/**
 * The wait an HTTP `Retry-After` value asks for, in ms: delta-seconds or an HTTP date (a past one
 * asks for none); undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names its month; Date.parse alone would read a stray "1.5" as a date.
  const at = /[a-z]/i.test(v) ? Date.parse(v) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** How long one provider call may take before it counts as a (retryable) failure. */
export const SEND_TIMEOUT_MS = 30_000;

/** An AWS SDK call's options: aborted once SEND_TIMEOUT_MS have passed, however the socket trickles meanwhile. */
export const boundedCall = () => ({ abortSignal: AbortSignal.timeout(SEND_TIMEOUT_MS) });

/** Values that look like credentials wherever they appear in a provider's message. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[private key]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[token]'],
  [/\bya29\.[A-Za-z0-9._-]+/g, '[token]'],
  [/(\/\/[^/\s:@]+):[^/\s@]+@/g, '$1:[redacted]@'],
  [/((?:secret|password|passwd|token|assertion|signature|private_key)["']?\s*[:=]\s*["']?)[^"'\s&,;]+/gi, '$1[redacted]'],
];
const MAX_ERROR_LENGTH = 1000;

/**
 * A provider's error message made safe to store: the known secrets of the send and anything shaped
 * like a credential are replaced, and the text is capped.
 */
export function redact(message: string, secrets: readonly (string | undefined)[]): string {
  let out = message;
  for (const secret of secrets) {
    // Short values (a region, a flag) would shred the message and are no secret.
    if (secret && secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out.length > MAX_ERROR_LENGTH ? `${out.slice(0, MAX_ERROR_LENGTH - 1)}…` : out;
}

/** Whether an HTTP status is worth retrying: the provider's trouble or its rate limit, not the request's. */
export const retryableStatus = (status: number) => status >= 500 || status === 429 || status === 408;

/** The HTTP answer an AWS SDK v3 error came from: the SDK adds it to every error it raises reading one. */
function awsResponse(err: unknown): { statusCode: number; headers: Record<string, string> } | undefined {
  const response = typeof err === 'object' && err !== null && '$response' in err ? err.$response : undefined;
  if (typeof response !== 'object' || response === null || !('statusCode' in response) || typeof response.statusCode !== 'number')
    return undefined;
  const headers = 'headers' in response && typeof response.headers === 'object' && response.headers !== null ? response.headers : {};
  return { statusCode: response.statusCode, headers: headers as Record<string, string> };
}

/**
 * An AWS SDK v3 call that failed on a 2xx answer (a body it could not read): the provider took the
 * message, so it counts as sent, with the SDK's complaint as the note. Undefined for other errors.
 */
export function awsAccepted(err: unknown, what: string): Sent | undefined {
  const status = awsResponse(err)?.statusCode;
  if (status === undefined || status < 200 || status > 299) return undefined;
  const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return { messageId: null, note: `${what} took the message (HTTP ${status}) but its answer could not be read: ${reason}` };
}

/** An AWS SDK v3 error as a SendFailure: client faults (bad credentials, bad parameters) are permanent. */
export function awsFailure(err: unknown): SendFailure {
  if (err instanceof SendFailure) return err;
  const e = err instanceof Error ? err : new Error(String(err));
  // The SDK adds these to its errors (ServiceException), and its metadata to network errors too.
  const fault = '$fault' in e ? e.$fault : undefined;
  const metadata = '$metadata' in e && typeof e.$metadata === 'object' && e.$metadata !== null ? e.$metadata : {};
  const status = 'httpStatusCode' in metadata && typeof metadata.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
  const retryable =
    ('$retryable' in e && e.$retryable !== undefined) ||
    fault !== 'client' ||
    (status !== undefined && retryableStatus(status)) ||
    /throttl/i.test(e.name);
  const head = status ? `${e.name} (HTTP ${status})` : e.name;
  // Node's HTTP client names headers in lower case.
  return new SendFailure(`${head}: ${e.message}`, !retryable, retryAfterMs(awsResponse(e)?.headers['retry-after']));
}
