import { type BonusEvent, bonusNow } from '@loyalty/view-model';
import { type AccountClient, CoreError } from '../core/client.server';
import { createMember, type LogInput, transient } from '../core/logs.server';
import { findMember } from '../core/member-data.server';
import { records } from '../core/records.server';
import { objectOf } from '../json';
import type { OrderLine } from '../shopify/order-payloads.server';
import { nothingLeft, ONE } from './plan';

/**
 * Points from what the store reports by itself (CONTRACT §19): per unit of the shop's currency spent
 * and per order from paid orders, once on sign-up and once for subscribing to the newsletter, taken
 * back by refunds and cancellations (an unsubscription takes nothing back). The
 * rates are the core's points setting, so the widget shows the ways to earn the worker applies.
 */

export interface PointsRates {
  perUnit: number;
  perOrder: number;
  onSignUp: number;
  onNewsletter: number;
  /** For the member whose referral brought a new customer, on that customer's first order (referrals.server.ts). */
  onReferral: number;
  /** For that customer, on the same order. */
  onReferredOrder: number;
  /** A bonus points event: orders placed within it earn their per-unit and per-order points times its multiplier. */
  bonus: BonusEvent;
}

/** The shop's rates while its points are live; null while they are off. */
export async function liveRates(api: AccountClient): Promise<PointsRates | null> {
  const listed = await records(api, 'points_setting')
    .list({ limit: 1 })
    .catch(() => null);
  if (!listed?.ok) throw new CoreError(listed ? listed.failure.status : 0);
  const setting = listed.data[0];
  if (setting?.status !== 'live') return null;
  return {
    perUnit: setting.pointsPerCurrencyUnit ?? 0,
    perOrder: setting.pointsPerOrder ?? 0,
    onSignUp: setting.pointsOnSignUp ?? 0,
    onNewsletter: setting.pointsOnNewsletter ?? 0,
    onReferral: setting.pointsOnReferral ?? 0,
    onReferredOrder: setting.pointsOnReferredOrder ?? 0,
    bonus: { bonusMultiplier: setting.bonusMultiplier ?? 1, bonusStartsAt: setting.bonusStartsAt, bonusEndsAt: setting.bonusEndsAt },
  };
}

/**
 * An order's points before the member's tier multiplies them: its spent part (rounded down) and its
 * per-order part, each times the bonus event's multiplier when the order was placed (`processedAt`)
 * within it (`bonus`; 1 for none).
 */
export function orderPoints(
  rates: PointsRates,
  lines: readonly OrderLine[],
  processedAt: string,
): { unit: number; order: number; bonus: number } {
  const milli = lines.reduce((sum, l) => sum + l.milli, 0);
  // The same rule the storefront says it by: running from its start until its end.
  const bonus = bonusNow(rates.bonus, Date.parse(processedAt))?.multiplier ?? 1;
  return { unit: Math.floor((milli * rates.perUnit * bonus) / ONE + 1e-9), order: Math.floor(rates.perOrder * bonus + 1e-9), bonus };
}

export interface EarnedPoints {
  /** What the core wrote, after the tier's multiplier. */
  points: number;
  unit: number;
  order: number;
}

/**
 * What of an order's points is taken back once `refunded` (each line's refunded quantity): the
 * spent part's share of the refunded amount while something of the order is left, all of it once
 * nothing is. Cumulative, so refunds arriving in any order take back the same in the end.
 */
export function pointsTakenBack(earned: EarnedPoints, lines: readonly OrderLine[], refunded: Readonly<Record<string, number>>): number {
  if (nothingLeft(lines, refunded)) return earned.points;
  const total = lines.reduce((sum, l) => sum + l.milli, 0);
  const base = earned.unit + earned.order;
  if (!total || !base) return 0;
  const refundedMilli = lines.reduce((sum, l) => sum + (l.milli * Math.min(refunded[l.id] ?? 0, l.quantity)) / l.quantity, 0);
  return Math.floor(((earned.points * earned.unit) / base) * (refundedMilli / total) + 1e-9);
}

/**
 * The customer's member, made from what the webhook says of them when the program has none yet;
 * one there already takes the language the webhook names, as a log's inline member would.
 */
export async function memberId(api: AccountClient, ownedBy: LogInput['ownedBy']): Promise<string> {
  const found = await findMember(api, ownedBy.externalId).catch(() => {
    throw new CoreError(0);
  });
  if (found) {
    const { languageCode } = ownedBy;
    if (languageCode && found.languageCode !== languageCode) {
      const patched = await api
        .PATCH('/schema/account_user/record/{id}', { params: { path: { id: found.id } }, body: { languageCode } })
        .catch(() => {
          throw new CoreError(0);
        });
      // The points matter more than the language: only a refusal that may pass retries the job.
      if (!patched.data && transient(patched.response.status)) throw new CoreError(patched.response.status, patched.error);
    }
    return found.id;
  }
  const made = await createMember(api, ownedBy).catch(() => {
    throw new CoreError(0);
  });
  if (made.data) return made.data.data.id;
  // Made meanwhile by a log of the same order or another worker.
  const raced = made.response.status === 409 ? await findMember(api, ownedBy.externalId) : null;
  if (raced) return raced.id;
  throw new CoreError(made.response.status, made.error);
}

export type EarnOutcome = { earned: true; entryId: string; points: number } | { earned: false; refused: string };

type ErrorBody = { error?: { code?: string; message?: string; details?: unknown[] } } | undefined;

const codeOf = (body: ErrorBody) => body?.error?.code;

/** The point entry a replayed uniqueIdentifier names, as the core answered it the first time. */
export async function existingEntry(api: AccountClient, body: ErrorBody): Promise<{ id: string; points: number } | null> {
  const detail = objectOf(body?.error?.details?.[0]);
  if (typeof detail.existingRecordId !== 'string') return null;
  const got = await api.GET('/schema/point_entry/record/{id}', { params: { path: { id: detail.existingRecordId } } });
  if (got.data) return { id: got.data.data.id, points: got.data.data.points ?? 0 };
  throw new CoreError(got.response.status, got.error);
}

/**
 * One `earned` entry, once per `uniqueIdentifier`: a retried job finds the entry it wrote before.
 * A transient refusal throws CoreError (the job is retried); points turned off is a lasting refusal.
 */
export async function earnPoints(
  api: AccountClient,
  ownedBy: LogInput['ownedBy'],
  entry: { points: number; uniqueIdentifier: string; linkedSchemaSlug: string; linkedSchemaRecordId: string; note?: string },
): Promise<EarnOutcome> {
  const ownedById = await memberId(api, ownedBy);
  const result = await api.POST('/schema/point_entry/record', { body: { ownedById, reason: 'earned', ...entry } }).catch(() => {
    throw new CoreError(0);
  });
  if (result.data) return { earned: true, entryId: result.data.data.id, points: result.data.data.points ?? 0 };
  const status = result.response.status;
  const error: ErrorBody = result.error;
  if (status === 409 && codeOf(error) === 'duplicate_unique_identifier') {
    const existing = await existingEntry(api, error);
    if (existing) return { earned: true, entryId: existing.id, points: existing.points };
  }
  if (transient(status)) throw new CoreError(status, result.error);
  return { earned: false, refused: `${status}: ${error?.error?.message ?? `the core answered ${status}`}` };
}

export type TakeBackOutcome = { taken: number } | { taken: 0; refused: string };

/** A `reversed` entry taking `points` back from an earned entry, once per `uniqueIdentifier`. */
export async function takeBackPoints(
  api: AccountClient,
  entryId: string,
  points: number,
  uniqueIdentifier: string,
  note: string,
): Promise<TakeBackOutcome> {
  const result = await api
    .POST('/schema/point_entry/record/{id}/action/reverse', { params: { path: { id: entryId } }, body: { points, uniqueIdentifier, note } })
    .catch(() => {
      throw new CoreError(0);
    });
  if (result.data) return { taken: -(result.data.data.pointEntry.points ?? 0) };
  const status = result.response.status;
  const error: ErrorBody = result.error;
  // Done before (a retried job), or another reversal took it all: either way nothing more is owed.
  if (status === 409 && codeOf(error) === 'duplicate_unique_identifier') return { taken: points };
  if (status === 409 && codeOf(error) === 'not_reversible') return { taken: 0 };
  if (transient(status)) throw new CoreError(status, result.error);
  return { taken: 0, refused: `${status}: ${error?.error?.message ?? `the core answered ${status}`}` };
}
