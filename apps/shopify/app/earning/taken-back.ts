/**
 * Why the app took back what an order earned, as it writes it on the core's reversals (a revoked
 * reward's `revokedReason`) and point entries (their `note`), and reads it back so the admin can say
 * it in the merchant's language (and without the refund's id).
 */
export type TakenBack = { kind: 'refund' | 'cancellation'; order: string };

export function takenBackText(refundId: string | number | null, orderName: string): string {
  return refundId === null ? `order ${orderName} cancelled` : `refund ${refundId} of order ${orderName}`;
}

const REFUND = /^refund \S+ of order (.+)$/;
const CANCELLATION = /^order (.+) cancelled$/;

/** A text the app wrote with `takenBackText`, read back; anything else (a merchant's, another client's) is null. */
export function readTakenBack(text: string | null | undefined): TakenBack | null {
  if (!text) return null;
  const refund = REFUND.exec(text);
  if (refund) return { kind: 'refund', order: refund[1]! };
  const cancellation = CANCELLATION.exec(text);
  return cancellation ? { kind: 'cancellation', order: cancellation[1]! } : null;
}

/**
 * A streak run's or mission's status as the admin says it. One whose every log was taken back (a
 * refund, a cancellation) the core closes as of its own start once its window has passed or a later
 * log starts afresh (CONTRACT §17), broken or failed at or before it began: that is `taken_back`,
 * not a run the member lost. Until then it is in progress at 0: its day (or window) is not over.
 */
export function runStatus(status: unknown, closedAt: unknown, startedAt: unknown): string {
  const closed = typeof closedAt === 'string' ? Date.parse(closedAt) : Number.NaN;
  const started = typeof startedAt === 'string' ? Date.parse(startedAt) : Number.NaN;
  return (status === 'broken' || status === 'failed') && closed <= started ? 'taken_back' : String(status);
}
