import type { Api } from './api.js';
import { dateFormat } from './i18n.js';
import type { Member, PointsSetting } from './model.js';
import { multiplied } from './progress.js';

/**
 * A member's birthday, MM-DD without a year (CONTRACT §19's birthday points, an addition): what the
 * widget and the customer account page offer to pick and how they say it, in the shopper's
 * language. Dates are built in the leap year 2000 at UTC, so 02-29 exists and no zone moves a day.
 */

const on = (month: number, day: number) => new Date(Date.UTC(2000, month - 1, day));

/** The twelve months' names, January first. */
export const monthNames = (lang: string | undefined): string[] => {
  const format = dateFormat(lang, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, i) => format.format(on(i + 1, 1)));
};

/** The days a birthday may fall on in `month` (1–12): February's 29th too, as some years have it; 31 before a month is picked (0). */
export const daysIn = (month: number): number => (month ? new Date(Date.UTC(2000, month, 0)).getUTCDate() : 31);

/** The birthday the core keeps: MM-DD. */
export const birthdayOf = (month: number, day: number): string => `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** A birthday as the language writes a month and day ("March 14", "14. März", "3月14日"). */
export function birthdayText(birthday: string, lang: string | undefined): string {
  const [month, day] = birthday.split('-').map(Number) as [number, number];
  return dateFormat(lang, { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(on(month, day));
}

/** The points a member gets on their birthday, times their tier's `multiplier` as the core credits it; 0 while birthdays earn nothing. */
export const birthdayPoints = (setting: PointsSetting, multiplier = 1): number =>
  setting.pointsOnBirthday > 0 ? multiplied(setting.pointsOnBirthday, multiplier) : 0;

/** What a birthday form shows of a save: busy while it goes, the member once saved, a failure. */
export interface BirthdayView {
  setBusy(busy: boolean): void;
  setFailed(failed: boolean): void;
  setMember(member: Member): void;
}

/**
 * Saves the member's birthday (the core takes a member's own once). A refusal reads the member
 * again: one set meanwhile elsewhere is shown as theirs; otherwise the form says it failed and
 * keeps the choice for another try.
 */
export async function saveBirthdayInto(api: Pick<Api, 'setBirthday' | 'me'>, birthday: string, view: BirthdayView): Promise<void> {
  view.setBusy(true);
  view.setFailed(false);
  try {
    view.setMember(await api.setBirthday(birthday));
  } catch {
    const now = await api.me().catch(() => null);
    if (now?.birthday) view.setMember(now);
    else view.setFailed(true);
  } finally {
    view.setBusy(false);
  }
}
