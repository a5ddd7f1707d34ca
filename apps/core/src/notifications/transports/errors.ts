/** A message that is not sent, by design: the member cannot be reached on the channel. Recorded as `skipped`. */
export class SkipSend extends Error {}

/**
 * A send that failed. `permanent` failures (refused credentials, a rejected message) are not retried:
 * the same request would fail again. Others (a provider answering 5xx or 429, a network error, a
 * time-out) are retried with backoff.
 */
export class SendFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
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
  return new SendFailure(`${head}: ${e.message}`, !retryable);
}
