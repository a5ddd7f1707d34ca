import { DateTime } from 'luxon';
import { loadAccount } from '../auth/authenticate.js';
import { transaction } from '../db/transaction.js';
import { addEntry } from '../engine/points.js';
import type { RequestContext } from '../records/context.js';
import type { RecordService } from '../records/service.js';

const BATCH = 500;
/** A birthday the service was down on is still given this many days after it, never later. */
export const LATE_DAYS = 7;
const DAY_MS = 86_400_000;

export interface BirthdayPass {
  /** Members given their birthday points. */
  given: number;
  /** Whether every due account was gone through (false: the budget ran out first). */
  complete: boolean;
}

/** The birthdays some time zone may be within LATE_DAYS after at `now` (zones run from UTC−12 to UTC+14), 02-29 with 02-28. */
export function birthdaysAround(now: Date): string[] {
  const days = new Set<string>();
  for (let d = -(LATE_DAYS + 1); d <= 1; d++) days.add(new Date(now.getTime() + d * DAY_MS).toISOString().slice(5, 10));
  if (days.has('02-28')) days.add('02-29');
  return [...days].sort();
}

/** A birthday a member enters themselves is given from its first day at least this many days ahead, so none is entered on the day for its points. */
export const NOTICE_DAYS = 30;

/** The member's birthday in the local `year` of `zone`, 02-29 on 02-28 in a year without one. */
function birthdayIn(birthday: string, year: number, zone: string): DateTime {
  const [month, day] = birthday.split('-').map(Number) as [number, number];
  const leap = DateTime.local(year).isInLeapYear;
  return DateTime.fromObject({ year, month, day: month === 2 && day === 29 && !leap ? 28 : day }, { zone });
}

/** The local year of the birthday `from`..`to` days after `now` in `zone` (negative: before it), or null. */
function birthdayWithin(birthday: string, now: Date, zone: string, from: number, to: number): number | null {
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  for (const year of [today.year - 1, today.year, today.year + 1]) {
    const days = Math.round(birthdayIn(birthday, year, zone).diff(today, 'days').days);
    if (days >= from && days <= to) return year;
  }
  return null;
}

/**
 * The local year whose birthday the member is celebrating at `now` in `zone`: their birthday this
 * local year or last year's, if it is today or at most LATE_DAYS ago; null otherwise.
 */
export function birthdayYear(birthday: string, now: Date, zone: string): number | null {
  return birthdayWithin(birthday, now, zone, -LATE_DAYS, 0);
}

/**
 * The local year of a birthday too near for a member who enters it at `now` to be given it: at
 * less than NOTICE_DAYS ahead, or still within the late days; null when the next one is further off.
 */
export function birthdayTooNear(birthday: string, now: Date, zone: string): number | null {
  return birthdayWithin(birthday, now, zone, -LATE_DAYS, NOTICE_DAYS - 1);
}

interface Due {
  id: string;
  birthday: string;
  timezone: string | null;
  birthday_points_year: number | null;
}

/**
 * Birthday points (`pointsOnBirthday`, an addition to CONTRACT §19): once a year per live member
 * of an account whose points are live, on their birthday in their time zone (the account's when
 * they have none), or up to LATE_DAYS after it when the service was down that day. Members are
 * found through the birthday index by the few birthdays any zone may be at, in bounded batches
 * under FOR UPDATE SKIP LOCKED; each is given one `earned` entry (multiplied by their tier,
 * announced as `points_earned`) and their `birthday_points_year` in the batch's transaction, so
 * any number of workers give each member their birthday once.
 */
export async function runBirthdays(records: RecordService, now: Date, budgetMs: number): Promise<BirthdayPass> {
  const deadline = Date.now() + budgetMs;
  const pass: BirthdayPass = { given: 0, complete: true };
  const settings: { account_id: string; points_on_birthday: number }[] = await records
    .db('points_setting')
    .where('status', 'live')
    .andWhere('points_on_birthday', '>', 0)
    .select('account_id', 'points_on_birthday');
  const birthdays = birthdaysAround(now);
  // The year of the zones furthest ahead: a member given this year's (or a later one's) has nothing due.
  const latestYear = new Date(now.getTime() + 14 * 3_600_000).getUTCFullYear();
  for (const setting of settings) {
    const account = await loadAccount(records.db, setting.account_id);
    if (!account) continue;
    const ctx: RequestContext = { flow: 'apikey', account, languageCode: undefined, requestId: 'sweep:birthdays' };
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      if (Date.now() > deadline) return { ...pass, complete: false };
      const last = await transaction(records.db, async (trx) => {
        const rows: Due[] = await trx('account_user')
          .where('account_id', account.id)
          .whereIn('birthday', birthdays)
          .andWhere((w) => w.whereNull('birthday_points_year').orWhere('birthday_points_year', '<', latestYear))
          .andWhere('status', 'live')
          .andWhere('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked()
          .select('id', 'birthday', 'timezone', 'birthday_points_year');
        for (const member of rows) {
          const year = birthdayYear(member.birthday, now, member.timezone ?? account.timezone);
          if (year === null || (member.birthday_points_year ?? 0) >= year) continue;
          const entered = await addEntry(
            trx,
            account.id,
            {
              ownedById: member.id,
              points: setting.points_on_birthday,
              reason: 'earned',
              linkedSchemaSlug: 'birthday',
              linkedSchemaRecordId: String(year),
            },
            { whenNotLive: 'skip', announce: { records, ctx } },
          );
          if (!entered) return undefined;
          await trx('account_user').where({ account_id: account.id, id: member.id }).update({ birthday_points_year: year });
          pass.given++;
        }
        return rows.at(-1)?.id;
      });
      if (!last) break;
      after = last;
    }
  }
  return pass;
}
