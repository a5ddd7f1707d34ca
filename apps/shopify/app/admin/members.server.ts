import type { AccountClient } from '../core/client.server';
import { coreFailure, type CoreFailure, isOutage } from '../core/failure';
import {
  type ComplexCondition,
  type ListQuery,
  type RecordOf,
  records,
  type Result,
  updateRecord,
  whereEquals,
} from '../core/records.server';
import { objectOf } from '../json';
import type { MemberStatus } from './member-statuses';
import type { OrderEffect } from '../earning/ledger.server';
import { readTakenBack, runStatus, type TakenBack } from '../earning/taken-back';
import { type EntryLinks, orderNote, pointSource, type PointSource as StorefrontPointSource, pointsExpireAt } from '@loyalty/view-model';
import type { IssuedAtShopify, Outbox } from '../loop/outbox.server';
import { issuedRewardLog, rewardIssuedFields, triggerPayload } from '../loop/triggers.server';
import { type AdminGraphql, fetchCustomers, flowTriggerReceive } from '../shopify/admin-api.server';
import { shopifyCustomerId } from '../shopify/customer-ids.server';

/** The members admin (issue #18 part 3): search, one member's progress and rewards, freezes, resending a code. */

export const PAGE_SIZE = 50;
/** Words of a search: each must match one of the fields; four fields a word keeps far below the core's 50 leaves. */
const MAX_WORDS = 6;
const SEARCHED_FIELDS = ['firstName', 'lastName', 'email', 'externalId'] as const;

/**
 * The core filter for a search text and status: every word is found (case-insensitive `contains`,
 * CONTRACT §3) in the first name, last name, e-mail or external id, so "marie dup" finds Marie
 * Dupont and "@example.com" everyone at that domain; with a status, only members in it. Null for a
 * blank text without a status.
 */
export function memberSearchFilter(text: string, status: MemberStatus | null = null): ComplexCondition | null {
  // No name or e-mail holds a NUL (the core refuses one in a filter): a search for one is a search without it.
  const words = text.replaceAll('\0', '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  const conditions: ComplexCondition['conditions'] = words.map((word) => ({
    operator: 'or',
    conditions: SEARCHED_FIELDS.map((fieldSlug) => ({ fieldSlug, operator: 'contains', fieldValue: word })),
  }));
  if (status) conditions.push({ fieldSlug: 'status', operator: 'equals', fieldValue: status });
  return conditions.length ? { operator: 'and', conditions } : null;
}

export interface MemberRow {
  id: string;
  externalId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  status: string;
  createdAt: string;
  timezone: string | null;
  /** The member is a Shopify customer (externalId a Customer GID). */
  customerId: number | null;
  /** CONTRACT §19: the sum of the member's point entries. */
  pointsBalance: number;
  /** The member's tier by the name the merchant gave it; null without one. */
  tier: string | null;
  /** MM-DD (birthday points); null when neither they nor the shop gave it. */
  birthday: string | null;
  /** The networks whose profile of the shop the member followed for points. */
  socialFollows: string[];
}

const memberRow = (r: RecordOf<'account_user'>, tiers: ReadonlyMap<string, string>): MemberRow => ({
  id: r.id,
  externalId: r.externalId ?? '',
  firstName: r.firstName ?? null,
  lastName: r.lastName ?? null,
  email: r.email ?? null,
  status: r.status ?? '',
  createdAt: r.createdAt ?? '',
  timezone: r.timezone ?? null,
  customerId: shopifyCustomerId(r.externalId),
  pointsBalance: r.pointsBalance ?? 0,
  tier: (r.tierId && tiers.get(r.tierId)) || null,
  birthday: r.birthday ?? null,
  socialFollows: r.socialFollows ?? [],
});

/** A Shopify customer the core knows no name or e-mail of: met only through a storefront token, whose minting asks Shopify nothing. */
const nameless = (m: MemberRow) => m.customerId !== null && !m.firstName && !m.lastName && !m.email;

/**
 * The members as shown, the nameless ones named by Shopify (one query for all of them) and their
 * names and e-mail kept in the core, so the next page, a search and their messages have them too.
 * Best effort: where Shopify or the core does not answer, the member stays "(no name)" this time.
 */
export async function nameFromShopify(api: AccountClient, admin: AdminGraphql, members: MemberRow[]): Promise<MemberRow[]> {
  const unnamed = members.filter(nameless);
  if (!unnamed.length) return members;
  const found = await fetchCustomers(
    admin,
    unnamed.map((m) => m.externalId),
  ).catch(() => []);
  const byGid = new Map(found.map((c) => [c.id, c] as const));
  const named = new Map<string, MemberRow>();
  await Promise.all(
    unnamed.map(async (m) => {
      const customer = byGid.get(m.externalId);
      if (!customer) return;
      const known = Object.fromEntries(
        (['firstName', 'lastName', 'email'] as const).flatMap((k) => (customer[k] ? [[k, customer[k]] as const] : [])),
      );
      if (!Object.keys(known).length) return;
      named.set(m.id, { ...m, ...known });
      await updateRecord(api, 'account_user', m.id, known);
    }),
  );
  return members.map((m) => named.get(m.id) ?? m);
}

export async function searchMembers(api: AccountClient, text: string, page: number, status: MemberStatus | null = null) {
  const filters = memberSearchFilter(text, status);
  // An account has a handful of tiers: named here, once for the page.
  const [result, tiers] = await Promise.all([
    records(api, 'account_user').list({
      ...(filters ? { filters } : {}),
      sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }],
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
      fetchTotalCount: true,
    }),
    records(api, 'tier').list({ limit: 1000 }),
  ]);
  if (!result.ok) return { members: [], total: 0, failure: result.failure };
  const names = new Map(tiers.ok ? tiers.data.map((t) => [t.id, t.name ?? ''] as const) : []);
  return { members: result.data.map((r) => memberRow(r, names)), total: result.total ?? 0, failure: null };
}

/** An instant as ISO 8601, or null; the page reads it in the member's time zone (`member.timezone`). */
function instant(value: unknown): string | null {
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const name = (r: { name?: unknown }) => String(r.name ?? '') || null;
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

export interface StreakRow {
  id: string;
  streakName: string | null;
  status: string;
  run: number;
  freezesAvailable: number;
  freezesUsed: number;
  frozenPeriodKeys: string[];
  maxFreezes: number;
  /** Instants below (ISO 8601) are read in the member's time zone. */
  breaksAt: string | null;
  startedAt: string;
}

export interface ChallengeRow {
  id: string;
  challengeName: string | null;
  periodKey: string;
  status: string;
  value: number;
  target: number | null;
}

export interface MissionRow {
  id: string;
  missionName: string | null;
  status: string;
  tasksCompleted: number;
  /** Null once the mission was deleted: its tasks are no longer known. */
  tasks: number | null;
  startedAt: string;
}

export interface RewardRow {
  id: string;
  title: string | null;
  source: string;
  /** The code to apply; null for store credit, points and a code still to come. */
  couponCode: string | null;
  /** Store credit the reward credited to the customer's account (CONTRACT §16), in its currency. */
  storeCredit: { amount: number; currency: string } | null;
  /** Points the reward added to the balance (a reward of kind `points`, CONTRACT §19). */
  points: number | null;
  /** When the code was issued, else when the reward was earned (a code still to come). */
  issuedAt: string | null;
  expiresAt: string | null;
  /** CONTRACT §17: held (`pending` until `confirmAt`), `issued`, or `revoked` by a reversal. */
  status: 'pending' | 'issued' | 'revoked';
  confirmAt: string | null;
  revokedReason: Note | null;
  /** A revoked reward's Shopify discount: deactivated, found used (left), not at Shopify, or failed; null when none. */
  discount: string | null;
}

export interface PointRow {
  id: string;
  points: number;
  reason: 'earned' | 'redeemed' | 'reversed' | 'expired' | 'adjusted';
  /** What the entry came from, in the merchant's terms; a reversal names what it took back from. */
  from: PointSource | null;
  /** The entry's note, unless it only repeats the order it came from or the service wrote it (the reason and source say it). */
  note: Note | null;
  createdAt: string;
}

/**
 * A text beside a record: the app's own words on an order taken back, read so the admin says them in
 * its language (without the order where the row names it already); any other as written.
 */
export type Note = { kind: TakenBack['kind']; order: string | null } | { kind: 'text'; text: string };

const noteOf = (text: string | null | undefined): Note | null => (text ? (readTakenBack(text) ?? { kind: 'text', text }) : null);

const withoutOrder = (note: Note | null, from: PointSource | null): Note | null =>
  note && note.kind !== 'text' && from?.kind === 'order' && from.name === note.order ? { ...note, order: null } : note;

/**
 * Whether an entry's note adds nothing to its reason and source: an order's name on its own entry,
 * and the service's own English on an expiry and on taking back a revoked reward's points.
 */
const saysNothingMore = (e: { reason?: string | null; note?: string | null }, from: PointSource | null): boolean =>
  e.reason === 'expired' ||
  (e.reason === 'reversed' && from?.kind === 'reward') ||
  (from?.kind === 'order' && orderNote(from.name, from.bonus) === e.note);

/** What the storefront says an entry came from (the view model's), with a reward (earned, bought or taken back) by its title. */
export type PointSource = Exclude<StorefrontPointSource, { kind: 'reward' }> | { kind: 'reward'; title: string | null };

/** The merchant knows a reward by its name; a deleted reward leaves the member's text. */
const rewardTitle = (log: { reward?: unknown; eudRewardTitle?: string | null }): string | null =>
  name(objectOf(log.reward)) ?? (log.eudRewardTitle || null);

/**
 * Where each of a member's point entries came from, read as the storefront reads it (the view
 * model's `pointSource`: the app's order, sign-up, newsletter and referral links, a reward log, what a taking back took
 * back from), with a reward by its title.
 */
function pointSources(entries: (EntryLinks & { id: string })[], rewardTitles: Map<string, string | null>) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return (e: EntryLinks): PointSource | null => {
    const from = pointSource(e, byId);
    return from?.kind === 'reward' ? { kind: 'reward', title: rewardTitles.get(from.logId) ?? null } : from;
  };
}

/** When the member's points expire, by the rule the storefront shows (the view model's); none when the setting cannot be read. */
function expiryOf(settings: Result<RecordOf<'points_setting'>[]>, member: RecordOf<'account_user'>): string | null {
  const months = settings.ok ? (settings.data[0]?.expiryMonthsOfInactivity ?? 0) : 0;
  return (
    pointsExpireAt(months, {
      pointsBalance: member.pointsBalance ?? 0,
      lastPointEntryAt: member.lastPointEntryAt ?? null,
    })?.toISOString() ?? null
  );
}

/** An order as the member page shows it. */
export type OrderRow = OrderEffect;

export interface MemberDetail {
  member: MemberRow;
  streaks: StreakRow[];
  challenges: ChallengeRow[];
  missions: MissionRow[];
  rewards: RewardRow[];
  /** The member's point entries, newest first. */
  points: PointRow[];
  /** The customer's orders and what each earned, took back and rewarded (Shopify customers only). */
  orders: OrderRow[];
  /** The member's VIP tier (CONTRACT §19 `tierId`), by name; null when in none. */
  tier: { id: string; name: string } | null;
  /** When the member's points expire without an entry before (as their rewards page says); null when they do not. */
  pointsExpireAt: string | null;
  /** Who referred the member (by name, for a link to their page), and how many customers the member referred. */
  referrals: { referredBy: MemberRow | null; referred: number };
}

/** What the member page reads from the app's own tables: a customer's orders, and what the app made at Shopify for reward logs. */
export interface MemberLedger {
  orders(customerId: string): Promise<OrderEffect[]>;
  issuedAtShopify(rewardLogIds: readonly string[]): Promise<Map<string, IssuedAtShopify>>;
}

/** How many of each a member page lists, newest first; a member with more is far from the usual. */
const DETAIL_LIMIT = 100;

/**
 * One member with their progress and reward logs; null when the core has no such member (404). A
 * member without a time zone of their own lives in the account's, which is the shop's (set at install).
 */
export async function memberDetail(
  api: AccountClient,
  id: string,
  shopTimezone: string | null,
  ledger: MemberLedger,
): Promise<{ detail: MemberDetail | null; failure: CoreFailure | null }> {
  const member = await records(api, 'account_user').get(id);
  if (!member.ok) return { detail: null, failure: member.failure.status === 404 ? null : member.failure };
  const mine: ListQuery = {
    filters: whereEquals('ownedById', id),
    sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }],
    limit: DETAIL_LIMIT,
  };
  const [streaks, challenges, missions, rewards, points, settings] = await Promise.all([
    records(api, 'streak_progress').list(mine),
    records(api, 'challenge_progress').list(mine),
    records(api, 'mission_progress').list(mine),
    records(api, 'reward_log').list(mine),
    records(api, 'point_entry').list(mine),
    records(api, 'points_setting').list({ limit: 1 }),
  ]);
  for (const list of [streaks, challenges, missions, rewards, points]) if (!list.ok) return { detail: null, failure: list.failure };
  const rows = <T>(list: Result<T[]>): T[] => (list.ok ? list.data : []);
  const tierId = member.data.tierId;
  const customerId = shopifyCustomerId(member.data.externalId);
  const referredById = member.data.referredById;
  const [orders, atShopify, tier, referrer, referred] = await Promise.all([
    customerId === null ? [] : ledger.orders(String(customerId)),
    ledger.issuedAtShopify(rows(rewards).map((r) => r.id)),
    tierId ? records(api, 'tier').get(tierId) : null,
    referredById ? records(api, 'account_user').get(referredById) : null,
    records(api, 'account_user').list({ filters: whereEquals('referredById', id), limit: 1, fetchTotalCount: true }),
  ]);
  const own = memberRow(member.data, new Map(tier?.ok ? [[tier.data.id, tier.data.name ?? '']] : []));
  const profile = { ...own, timezone: own.timezone ?? shopTimezone };
  const sourceOf = pointSources(rows(points), new Map(rows(rewards).map((r) => [r.id, rewardTitle(r)])));
  // What a points reward added: its entry (with the tier's multiplier), else its value (held, or older than the entries read).
  const earnedBy = new Map(
    rows(points).flatMap((e) => (e.reason === 'earned' && e.linkedSchemaSlug === 'reward_log' ? [[e.linkedSchemaRecordId, e.points]] : [])),
  );
  const pointsOf = (rewardLogId: string, reward: Record<string, unknown>): number | null =>
    reward.rewardKind === 'points'
      ? (earnedBy.get(rewardLogId) ?? (typeof reward.pointsValue === 'number' ? reward.pointsValue : null))
      : null;
  return {
    failure: null,
    detail: {
      member: profile,
      streaks: rows(streaks).map((p) => {
        const streak = objectOf(p.streak);
        return {
          id: p.id,
          streakName: name(streak),
          status: runStatus(p.streakProgressStatus, p.streakBrokenAt, p.streakStartedAt),
          run: num(p.currentProgressValue),
          freezesAvailable: num(p.freezesAvailable),
          freezesUsed: num(p.freezesUsed),
          frozenPeriodKeys: p.frozenPeriodKeys ?? [],
          maxFreezes: num(streak.maxFreezes),
          breaksAt: instant(p.streakToBeBrokenAt),
          startedAt: instant(p.streakStartedAt) ?? '',
        };
      }),
      challenges: rows(challenges).map((p) => {
        const challenge = objectOf(p.challenge);
        return {
          id: p.id,
          challengeName: name(challenge),
          periodKey: String(p.periodKey ?? ''),
          status: String(p.challengeProgressStatus),
          value: num(p.currentProgressValue),
          target: typeof challenge.completionTargetValue === 'number' ? challenge.completionTargetValue : null,
        };
      }),
      missions: rows(missions).map((p) => {
        const tasks = p.taskProgresses ?? [];
        const mission = objectOf(p.mission);
        return {
          id: p.id,
          missionName: name(mission),
          status: runStatus(p.missionProgressStatus, p.missionFailedAt, p.missionStartedAt),
          tasksCompleted: tasks.filter((t) => t.taskProgressStatus === 'completed').length,
          tasks: p.mission == null ? null : Array.isArray(mission.tasks) ? mission.tasks.length : tasks.length,
          startedAt: instant(p.missionStartedAt) ?? '',
        };
      }),
      rewards: rows(rewards).map((r) => {
        const reward = objectOf(r.reward);
        const made = atShopify.get(r.id);
        return {
          id: r.id,
          title: rewardTitle(r),
          source: String(r.linkedSchemaSlug ?? ''),
          // A store credit's stamp (its amount) is not a code: the credit is shown for what it is, once credited (stamped).
          couponCode: made?.storeCredit ? null : (r.couponCode ?? null),
          storeCredit: made?.storeCredit && r.couponCode ? made.storeCredit : null,
          points: pointsOf(r.id, reward),
          issuedAt: instant(r.rewardIssuedAt ?? r.createdAt),
          expiresAt: instant(r.rewardExpiryAt),
          status: r.rewardLogStatus === 'pending' || r.rewardLogStatus === 'revoked' ? r.rewardLogStatus : 'issued',
          confirmAt: instant(r.confirmAt),
          revokedReason: noteOf(r.revokedReason),
          discount: r.rewardLogStatus === 'revoked' ? (made?.deactivation ?? null) : null,
        };
      }),
      tier: tier?.ok ? { id: tier.data.id, name: tier.data.name ?? '' } : null,
      pointsExpireAt: expiryOf(settings, member.data),
      referrals: {
        referredBy: referrer?.ok ? memberRow(referrer.data, new Map()) : null,
        referred: referred.ok ? (referred.total ?? referred.data.length) : 0,
      },
      points: rows(points).map((e) => {
        const from = sourceOf(e);
        return {
          id: e.id,
          points: e.points ?? 0,
          reason: e.reason ?? 'adjusted',
          from,
          note: saysNothingMore(e, from) ? null : withoutOrder(noteOf(e.note), from),
          createdAt: instant(e.createdAt) ?? '',
        };
      }),
      orders,
    },
  };
}

/** The most points one adjustment adds or takes off: the core takes no larger entry from a client. */
export const ADJUST_MAX = 1_000_000;

export type AdjustRefusal = 'insufficient' | 'zero' | 'tooLarge' | 'note' | 'outage' | 'other';

/**
 * An `adjusted` point entry from the member page (CONTRACT §19). `key` comes with the form, one per
 * adjustment typed, so a form sent twice adjusts once: the second is the core's replay.
 */
export async function adjustMemberPoints(
  api: AccountClient,
  memberId: string,
  input: { points: number; note: string; key: string },
): Promise<{ ok: true; balance: number } | { ok: false; reason: AdjustRefusal; message: string }> {
  if (!Number.isInteger(input.points) || input.points === 0) return { ok: false, reason: 'zero', message: '' };
  // The most one entry a client writes moves either way (CONTRACT §19's bound on what an API key writes).
  if (Math.abs(input.points) > ADJUST_MAX) return { ok: false, reason: 'tooLarge', message: '' };
  const note = input.note.trim();
  const { data, error, response } = await api.POST('/schema/point_entry/record', {
    body: {
      ownedById: memberId,
      points: input.points,
      reason: 'adjusted',
      uniqueIdentifier: `admin:${input.key}`,
      ...(note ? { note } : {}),
    },
  });
  const code = error?.error?.code;
  if (data || code === 'duplicate_unique_identifier') {
    const member = await records(api, 'account_user').get(memberId);
    return { ok: true, balance: member.ok ? (member.data.pointsBalance ?? 0) : 0 };
  }
  const failure = coreFailure(response.status, error);
  if (code === 'insufficient_points') return { ok: false, reason: 'insufficient', message: failure.message };
  if (failure.fieldErrors.note) return { ok: false, reason: 'note', message: failure.message };
  if (failure.fieldErrors.points) return { ok: false, reason: 'zero', message: failure.message };
  return { ok: false, reason: isOutage(failure.status) ? 'outage' : 'other', message: failure.message };
}

export type BirthdayRefusal = 'outage' | 'other';

/** Sets or (null) clears the member's birthday: the shop may change what the member gave; the core checks the day. */
export async function setMemberBirthday(
  api: AccountClient,
  memberId: string,
  birthday: string | null,
): Promise<{ ok: true; birthday: string | null } | { ok: false; reason: BirthdayRefusal; message: string }> {
  const { data, error, response } = await api.PATCH('/schema/account_user/record/{id}', {
    params: { path: { id: memberId } },
    body: { birthday },
  });
  if (data) return { ok: true, birthday: data.data.birthday ?? null };
  const failure = coreFailure(response.status, error);
  return { ok: false, reason: isOutage(failure.status) ? 'outage' : 'other', message: failure.message };
}

/** CONTRACT §14's grant: the core caps at the streak's maxFreezes and refuses what it must (409), in its own words. */
export async function grantFreezes(
  api: AccountClient,
  progressId: string,
  count: number,
): Promise<{ ok: true; freezesAvailable: number } | { ok: false; failure: CoreFailure }> {
  const { data, error, response } = await api.POST('/schema/streak_progress/record/{id}/action/grant_freezes', {
    params: { path: { id: progressId } },
    body: { count },
  });
  if (!data) return { ok: false, failure: coreFailure(response.status, error) };
  return { ok: true, freezesAvailable: num(data.data.freezesAvailable) };
}

export type GrantRefusal = 'count' | 'not_running' | 'off' | 'outage' | 'other';

/**
 * Which of §14's refusals of a grant the core's answer is, so the page words it: its 400 names the
 * count; its 409s are freezes off for the streak (its maxFreezes is 0) or a run that is over.
 */
export async function grantRefusal(api: AccountClient, progressId: string, failure: CoreFailure): Promise<GrantRefusal> {
  if (failure.status === 400 && failure.fieldErrors.count) return 'count';
  if (isOutage(failure.status)) return 'outage';
  if (failure.status !== 409) return 'other';
  // A run is over for the grant also when it is past its deadline with no freeze for the missed
  // period: the core settles that first, while the run may still read in progress.
  const progress = await records(api, 'streak_progress').get(progressId);
  return progress.ok && objectOf(progress.data.streak).maxFreezes === 0 ? 'off' : 'not_running';
}

export type ResendRefusal =
  'not_found' | 'held' | 'revoked' | 'not_customer' | 'no_code' | 'trigger_unused' | 'shopify_refused' | 'shopify_failed' | 'outage';

/**
 * Re-fires "Reward issued" (CONTRACT §16) for one reward log of the member, with the fields and
 * payload the loop sends, so a workflow that e-mails the code sends it again. Like the loop, it sends
 * only when the shop's Flow uses the trigger (as the lifecycle callback told) and only for Shopify
 * customers, and only for an issued reward (CONTRACT §17: never while held, never once revoked); it is
 * sent at once, so the merchant learns Shopify's answer.
 */
export async function resendRewardIssued(
  deps: { outbox: Outbox; api: AccountClient; admin: AdminGraphql; shop: string },
  memberId: string,
  rewardLogId: string,
): Promise<
  { ok: true; couponCode: string; storeCredit: IssuedAtShopify['storeCredit'] } | { ok: false; reason: ResendRefusal; message?: string }
> {
  const found = await records(deps.api, 'reward_log').get(rewardLogId);
  // A reward log of another member is not this page's to resend.
  if (!found.ok) return { ok: false, reason: isOutage(found.failure.status) ? 'outage' : 'not_found' };
  if (found.data.ownedById !== memberId) return { ok: false, reason: 'not_found' };
  const log = issuedRewardLog(found.data);
  // CONTRACT §17: a held reward is not the shopper's yet, a revoked one no longer is.
  if (log?.status === 'pending') return { ok: false, reason: 'held' };
  if (log?.status === 'revoked') return { ok: false, reason: 'revoked' };
  const customerId = shopifyCustomerId(objectOf(found.data.ownedBy).externalId);
  if (customerId === null) return { ok: false, reason: 'not_customer' };
  if (!log?.couponCode) return { ok: false, reason: 'no_code' };
  if (!(await deps.outbox.usesTrigger(deps.shop, 'loyalty-reward-issued'))) return { ok: false, reason: 'trigger_unused' };
  // As the loop sent it: a Shopify discount's or store credit's fields name their kind.
  const made = (await deps.outbox.issuedAtShopify(deps.shop, [log.id])).get(log.id);
  const fields = made?.triggerFields ?? rewardIssuedFields(log, null);
  try {
    const userErrors = await flowTriggerReceive(
      deps.admin,
      'loyalty-reward-issued',
      triggerPayload(customerId, { ...fields, coupon_code: log.couponCode }),
    );
    if (userErrors.length) return { ok: false, reason: 'shopify_refused', message: userErrors.map((e) => e.message).join('; ') };
  } catch (err) {
    return { ok: false, reason: 'shopify_failed', message: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  }
  return { ok: true, couponCode: log.couponCode, storeCredit: made?.storeCredit ?? null };
}
