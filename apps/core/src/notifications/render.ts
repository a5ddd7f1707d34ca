import type { Knex } from 'knex';
import type { AccountInfo } from '../auth/authenticate.js';
import type { Period } from '../engine/periods.js';
import type { EventCode } from '../events/codes.js';
import { LANGUAGE_CODES, type LanguageCode } from '../formats.js';
import { type RequestContext, resolveText, textLanguage } from '../records/context.js';
import type { LocalisedText, RowOfFields } from '../records/row-types.js';
import { type AccountUserRow, memberFromRow } from '../schema/members.js';
import type { EmailTemplateRow, PushNotificationTemplateRow } from '../schema/notifications.js';
import type { eventLogFields } from '../schema/progress.js';
import { formatValidTill } from '../templates/format.js';
import { render, TemplateError, unknownVariables } from '../templates/render.js';
import { sampleEvent, sampleMember, sampleTier } from './samples.js';

/** An event_log row as templates see it: its fields' columns (the engine's dispatch bookkeeping aside). */
export type EventInput = RowOfFields<typeof eventLogFields>;

/** What a notification is rendered about: the tenancy, the member (an account_user row) and the event (an event_log row). */
export interface RenderInput {
  organization: { id: string; name: string };
  account: AccountInfo;
  member: AccountUserRow;
  event: EventInput;
  unsubscribeUrl: string;
  points: PointsContext;
}

/** What a message says of points (CONTRACT §19), loaded with the member: the account's name for them and its tiers. */
export interface PointsContext {
  /** The points setting's `eudCurrencyName` (per language), null when the merchant named none. */
  currencyName: unknown;
  /** Its `eudCurrencyNameOne`, what one point is called (per language). */
  currencyNameOne: unknown;
  /** The account's tiers by id, by the API's names (messages read `name` and `eudTitle`): payloads carry them in one language only. */
  tiers: ReadonlyMap<string, Json>;
}

/** The account's points setting and tiers, as a message needs them (an account has a handful of tiers). */
export async function loadPointsContext(db: Knex, accountId: string): Promise<PointsContext> {
  // One after the other: in a transaction both share its connection, and outside one a caller holds at most one.
  const setting = await db('points_setting')
    .where({ account_id: accountId })
    .first<{ eud_currency_name: unknown; eud_currency_name_one: unknown } | undefined>('eud_currency_name', 'eud_currency_name_one');
  const tiers = await db('tier').where({ account_id: accountId }).select<Json[]>('id', 'name', 'eud_title as eudTitle');
  return {
    currencyName: setting?.eud_currency_name ?? null,
    currencyNameOne: setting?.eud_currency_name_one ?? null,
    tiers: new Map(tiers.map((t) => [String(t.id), t])),
  };
}

export interface Rendering {
  /** The variables of CONTRACT §11: `$organization`, `$account`, `$account_user`, `$event_log`, `$helpers`. */
  context: Record<string, unknown>;
  /** The member's language, else the account's, unless moved to the one a template is written in: texts and formatting use it. */
  language: LanguageCode;
  /** The same moment, its values formatted for another language. */
  in(language: LanguageCode): Rendering;
}

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json | undefined => (isJson(v) ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** Sums of decimal activity values drift in binary (0.3 - 0.1); templates show what a person expects. */
const tidy = (n: number) => Math.round(n * 1e6) / 1e6;
const remaining = (target: number | undefined, current: number) => (target === undefined ? undefined : tidy(Math.max(0, target - current)));

const PERIOD_WORDS: Record<string, Record<Period, string>> = {
  en: { daily: 'day', weekly: 'week', monthly: 'month' },
  es: { daily: 'día', weekly: 'semana', monthly: 'mes' },
  fr: { daily: 'jour', weekly: 'semaine', monthly: 'mois' },
  de: { daily: 'Tag', weekly: 'Woche', monthly: 'Monat' },
  'zh-CN': { daily: '天', weekly: '周', monthly: '月' },
  ja: { daily: '日', weekly: '週', monthly: '月' },
  pt: { daily: 'dia', weekly: 'semana', monthly: 'mês' },
  it: { daily: 'giorno', weekly: 'settimana', monthly: 'mese' },
  ko: { daily: '일', weekly: '주', monthly: '월' },
};

/** What one point is called where the merchant named points nothing (the languages without plurals say it as the others). */
const POINT_WORDS: Record<LanguageCode, string> = {
  en: 'point',
  es: 'punto',
  fr: 'point',
  de: 'Punkt',
  'zh-CN': '积分',
  ja: 'ポイント',
  pt: 'ponto',
  it: 'punto',
  ko: '포인트',
};

/** What points are called where the merchant named them nothing. */
const POINTS_WORDS: Record<LanguageCode, string> = {
  en: 'points',
  es: 'puntos',
  fr: 'points',
  de: 'Punkte',
  'zh-CN': '积分',
  ja: 'ポイント',
  pt: 'pontos',
  it: 'punti',
  ko: '포인트',
};

interface Formatting {
  language: string;
  timeZone: string;
}

function periodText(period: unknown, f: Formatting): string | undefined {
  const words: Readonly<Record<string, string>> = PERIOD_WORDS[f.language] ?? PERIOD_WORDS.en!;
  return typeof period === 'string' ? words[period] : undefined;
}

/**
 * A deadline (the end of a period, exclusive) as the last minute it still allows: a day that ends
 * at midnight reads "November 21, 2026 at 11:59 PM", not the next day at 12:00 AM.
 */
function formatDeadline(value: unknown, f: Formatting): string | undefined {
  if (typeof value !== 'string') return undefined;
  const at = new Date(Date.parse(value) - 1);
  if (Number.isNaN(at.getTime())) return undefined;
  return new Intl.DateTimeFormat(f.language, { dateStyle: 'long', timeStyle: 'short', timeZone: f.timeZone }).format(at);
}

/**
 * The progress, definition and next milestone an event carries: log-driven payloads hold them in
 * `<kind>Log` (the log create response), sweep payloads in `<kind>Progress` (CONTRACT §9).
 */
function eventParts(payload: Json, kind: 'streak' | 'challenge' | 'mission') {
  const log = obj(payload[`${kind}Log`]);
  const progress = log ? obj(log[`${kind}Progress`]) : obj(payload[`${kind}Progress`]);
  return {
    progress,
    definition: obj(log ? log[kind] : progress?.[kind]),
    next: obj(log ? log.nextMilestone : progress?.nextMilestone),
  };
}

/**
 * Streak helpers (codes `streak_…`). Log-driven payloads carry `streakLog` (the log create response:
 * `streakProgress`, `streak`, `nextMilestone`…); progress payloads (`_to_be_broken`, `_broken`,
 * `_freeze_used`, `_freeze_earned`) carry `streakProgress` with `streak` and `nextMilestone` inside.
 * Either way:
 * - `currentProgressValue`: the progress's consecutive completed periods (for `_broken`, the length
 *   the streak had when it broke);
 * - `nextMilestoneTargetValue`: the payload's `nextMilestone.milestoneTargetValue` (absent when no
 *   milestone is ahead), `nextMilestoneRemainingValue` = that minus the current value;
 * - `nextNonMilestoneTargetValue`: the next period completion, current + 1 (absent once
 *   `completionTargetValue` is reached), so `nextNonMilestoneRemainingValue` is 1 period;
 * - `remainingValue`: the next milestone's remaining value when a milestone is ahead, else the
 *   next period's;
 * - `completionTargetValue` and `periodText` (day, week or month in the member's language) from the streak;
 * - `formattedStreakToBeBrokenAt`: the progress's `streakToBeBrokenAt`, the end of the period the
 *   member must complete next.
 */
function streakHelpers(payload: Json, f: Formatting): Json {
  const { progress, definition: streak, next } = eventParts(payload, 'streak');
  const current = num(progress?.currentProgressValue) ?? 0;
  const completion = num(streak?.completionTargetValue);
  const nextMilestoneTargetValue = num(next?.milestoneTargetValue);
  const nextNonMilestoneTargetValue = completion !== undefined && current >= completion ? undefined : current + 1;
  const nextMilestoneRemainingValue = remaining(nextMilestoneTargetValue, current);
  const nextNonMilestoneRemainingValue = remaining(nextNonMilestoneTargetValue, current);
  return {
    periodText: periodText(streak?.aggregationPeriod, f),
    currentProgressValue: current,
    completionTargetValue: completion,
    nextMilestoneTargetValue,
    nextMilestoneRemainingValue,
    nextNonMilestoneTargetValue,
    nextNonMilestoneRemainingValue,
    remainingValue: nextMilestoneRemainingValue ?? nextNonMilestoneRemainingValue,
    formattedStreakToBeBrokenAt: formatDeadline(progress?.streakToBeBrokenAt, f),
  };
}

/**
 * Challenge helpers (codes `challenge_…`), from `challengeLog` (log-driven) or `challengeProgress`
 * (sweeps: `_to_be_failed`, `_failed`), as for streaks:
 * - `currentProgressValue`: the value accumulated in the window;
 * - `completionTargetValue` from the challenge, `remainingValue` = completion target minus current (never below 0);
 * - `nextMilestoneRemainingValue`: the next milestone's target minus current (absent when none is ahead);
 * - `periodText`: the window (day, week or month); `formattedChallengeToBeFailedAt`: the window's end.
 */
function challengeHelpers(payload: Json, f: Formatting): Json {
  const { progress, definition: challenge, next } = eventParts(payload, 'challenge');
  const current = tidy(num(progress?.currentProgressValue) ?? 0);
  const completion = num(challenge?.completionTargetValue);
  return {
    periodText: periodText(challenge?.aggregationPeriod, f),
    currentProgressValue: current,
    completionTargetValue: completion,
    remainingValue: remaining(completion, current),
    nextMilestoneRemainingValue: remaining(num(next?.milestoneTargetValue), current),
    formattedChallengeToBeFailedAt: formatDeadline(progress?.challengeToBeFailedAt, f),
  };
}

/**
 * Mission helpers (codes `mission_…`; the spec names none, these mirror the challenge's): progress
 * counts completed tasks of `missionProgress.taskProgresses` against the mission's tasks;
 * `formattedMissionToBeFailedAt` is the end of the member's window.
 */
function missionHelpers(payload: Json, f: Formatting): Json {
  const { progress, definition: mission, next } = eventParts(payload, 'mission');
  const tasks = Array.isArray(mission?.tasks) ? mission.tasks.length : undefined;
  const taskProgresses = Array.isArray(progress?.taskProgresses) ? progress.taskProgresses : [];
  const current = taskProgresses.filter((t) => obj(t)?.taskProgressStatus === 'completed').length;
  return {
    periodText: periodText(mission?.aggregationPeriod, f),
    currentProgressValue: current,
    completionTargetValue: tasks,
    remainingValue: remaining(tasks, current),
    nextMilestoneRemainingValue: remaining(num(next?.milestoneTargetValue), current),
    formattedMissionToBeFailedAt: formatDeadline(progress?.missionToBeFailedAt, f),
  };
}

/**
 * `rewardValidTill`: the expiry of the reward the event issued — a mission's `rewardLog`, else the
 * highest `achievedMilestoneRewardLog`, of the log, or of the payload itself for a run completed
 * without one — as a long date in the member's language and time zone (the reward log resource's
 * formatting). Absent when the event issued no reward or it does not expire.
 */
function rewardValidTill(payload: Json, f: Formatting): string | undefined {
  const log = obj(payload.streakLog) ?? obj(payload.challengeLog) ?? obj(payload.missionLog) ?? payload;
  const expiry = [obj(log?.rewardLog), obj(log?.achievedMilestoneRewardLog)]
    .map((r) => r?.rewardExpiryAt)
    .find((v) => typeof v === 'string');
  return expiry === undefined ? undefined : formatValidTill(new Date(expiry), f.language, f.timeZone) || undefined;
}

/**
 * Points helpers (CONTRACT §19), on every event, so any message can speak of them:
 * - `pointsBalance` and `formattedPointsBalance` ("1,250 Stars": the number in the member's
 *   language and the account's name for points, else the language's word): the balance the event
 *   left (`member.pointsBalance` of points and tier events), else the member's now;
 * - `tierName`: the tier's `eudTitle` in their language, else its name (absent without a tier): the
 *   tier the event left (`member.tierId`, beside its balance), else the member's now;
 * - `formattedPoints`: a `points_earned` or `points_redeemed` entry's points, without a sign;
 * - `formattedExpiringPoints` and `formattedPointsExpireAt` (a long date) of `points_to_expire`;
 * - `tierBeforeName` and `tierAfterName` of `tier_changed` (absent for no tier).
 */
function pointsHelpers(input: RenderInput, code: string, payload: Json, f: Formatting & { language: LanguageCode }): Json {
  const { account, member, points } = input;
  const named = textIn(points.currencyName, f.language, account);
  const words = {
    one: named ? textIn(points.currencyNameOne, f.language, account) || named : POINT_WORDS[f.language],
    other: named || POINTS_WORDS[f.language],
  };
  const plural = new Intl.PluralRules(f.language);
  const amount = (n: number | undefined) =>
    n === undefined ? undefined : `${new Intl.NumberFormat(f.language).format(n)} ${plural.select(n) === 'one' ? words.one : words.other}`;
  // The account's tier in the member's language; a payload's copy when the tier is gone.
  const tierName = (tier: unknown) => {
    const t = typeof tier === 'string' ? points.tiers.get(tier) : obj(tier) && (points.tiers.get(String(obj(tier)!.id)) ?? obj(tier));
    if (!t) return undefined;
    return textIn(t.eudTitle, f.language, account) || (typeof t.name === 'string' ? t.name : undefined);
  };
  const left = obj(payload.member);
  const balance = num(left?.pointsBalance) ?? member.points_balance;
  // The tier beside the balance the event left, not one a later entry reached since.
  const tier = left && 'tierId' in left ? left.tierId : member.tier_id;
  const helpers: Json = { pointsBalance: balance, formattedPointsBalance: amount(balance), tierName: tierName(tier) };
  if (code === 'points_earned' || code === 'points_redeemed') {
    const entry = num(obj(payload.pointEntry)?.points);
    helpers.formattedPoints = amount(entry === undefined ? undefined : Math.abs(entry));
  }
  if (code === 'points_to_expire') {
    helpers.formattedExpiringPoints = amount(num(payload.expiringPoints));
    const at = typeof payload.expiresAt === 'string' ? new Date(payload.expiresAt) : undefined;
    helpers.formattedPointsExpireAt = at && formatValidTill(at, f.language, f.timeZone);
  }
  if (code === 'tier_changed') {
    helpers.tierBeforeName = tierName(payload.tierBefore);
    helpers.tierAfterName = tierName(payload.tierAfter);
  }
  return helpers;
}

/** The `$helpers` of an event: the unsubscribe link, the reward expiry, points and the helpers of its kind. */
function helpersFor(input: RenderInput, payload: Json, f: Formatting & { language: LanguageCode }): Json {
  const code = input.event.event_code;
  const kind = code.startsWith('streak_')
    ? streakHelpers
    : code.startsWith('challenge_')
      ? challengeHelpers
      : code.startsWith('mission_')
        ? missionHelpers
        : undefined;
  return {
    unsubscribeUrl: input.unsubscribeUrl,
    rewardValidTill: rewardValidTill(payload, f),
    ...pointsHelpers(input, code, payload, f),
    ...kind?.(payload, f),
  };
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));

/** The member's fields as the API names them; device tokens and opt-outs stay out of messages. */
function memberVariables(m: AccountUserRow): Json {
  return {
    id: m.id,
    ...memberFromRow(m),
    status: m.status,
    pointsBalance: m.points_balance,
    pointsEarnedInTierWindow: m.points_earned_in_tier_window,
    lastPointEntryAt: iso(m.last_point_entry_at),
    tierId: m.tier_id,
    // A message may carry the member's referral link: the shop's storefront with ?loyalty_ref=<code>.
    referralCode: m.referral_code,
    createdAt: iso(m.created_at),
    updatedAt: iso(m.updated_at),
  };
}

function eventVariables(e: EventInput): Json {
  return {
    id: e.id,
    eventCode: e.event_code,
    ownedById: e.owned_by_id,
    linkedSchemaSlug: e.linked_schema_slug,
    linkedSchemaRecordId: e.linked_schema_record_id,
    payload: e.payload,
    createdAt: iso(e.created_at),
    updatedAt: iso(e.updated_at),
  };
}

/** The variables a template sees for one event and member. */
export function buildContext(input: RenderInput, language = input.member.language_code ?? input.account.defaultLanguageCode): Rendering {
  const { organization, account, member, event } = input;
  const timeZone = member.timezone ?? account.timezone ?? 'UTC';
  const payload = obj(event.payload) ?? {};
  const rendering: Rendering = {
    language,
    in: (other) => (other === language ? rendering : buildContext(input, other)),
    context: {
      $organization: { id: organization.id, name: organization.name },
      $account: { id: account.id, name: account.name, timezone: account.timezone, defaultLanguageCode: account.defaultLanguageCode },
      $account_user: memberVariables(member),
      $event_log: eventVariables(event),
      $helpers: helpersFor(input, payload, { language, timeZone }),
    },
  };
  return rendering;
}

/**
 * The moment in the language a template's `main` text is read in: CONTRACT §7 falls back to the
 * account's or en when the template lacks the member's, and its values (periods, dates, amounts,
 * tier names) then read in the words around them.
 */
const writtenIn = (rendering: Rendering, main: unknown, account: AccountInfo): Rendering =>
  rendering.in(textLanguage(main, { languageCode: rendering.language, account }) ?? rendering.language);

/** A chat provider template's language ("de", "pt_BR", "zh_CN") as one of ours; undefined for one we do not write. */
export function chatLanguage(code: string): LanguageCode | undefined {
  const tag = code.replace('_', '-').toLowerCase();
  return LANGUAGE_CODES.find((lang) => lang.toLowerCase() === tag || lang === tag.split('-')[0]);
}

/** A localisable text in the language (CONTRACT §7 fall-back: then the account's, then en). */
export function textIn(map: unknown, language: LanguageCode, account: AccountInfo): string {
  return resolveText(map, { languageCode: language, account }) ?? '';
}

/** Plain-text fields (subjects, push, SMS, chat): nothing is HTML-escaped; a missing variable renders empty. */
export function renderText(source: string, context: Record<string, unknown>): string {
  return render(source, context, { escape: false });
}

export interface EmailContent {
  subject: string;
  html: string;
  /** The plain-text alternative of the HTML, which spam filters and text-only readers expect. */
  text: string;
}

/** What turns a rendered body into the sent email: its CSS inlined, and its plain-text part. */
interface EmailFinish {
  inline(html: string, css: string): string;
  plainText(html: string): string;
}

let emailFinish: Promise<EmailFinish> | undefined;

/**
 * juice and html-to-text, loaded with the first email rather than at start, where they were a
 * tenth of the service's start-up time. The plain text: links as "label [url]", headings as
 * written, images left out (their URLs are noise in text), the documented key-value table
 * (`field-table`) in aligned columns and other (layout) table cells one block each. Lines are not
 * wrapped: a wrap would part a label from its long link, and mail clients wrap text themselves.
 */
function loadEmailFinish(): Promise<EmailFinish> {
  emailFinish ??= Promise.all([import('juice'), import('html-to-text')]).then(([{ default: juice }, { compile }]) => ({
    inline: (html, css) => juice(html, { extraCss: css }),
    plainText: compile({
      wordwrap: false,
      selectors: [
        ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
        { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
        { selector: 'img', format: 'skip' },
        { selector: 'table.field-table', format: 'dataTable' },
        { selector: 'td', format: 'block' },
        { selector: 'th', format: 'block' },
      ],
    }),
  }));
  return emailFinish;
}

async function emailPart(db: Knex, table: 'email_header' | 'email_footer', accountId: string, id: unknown): Promise<unknown> {
  if (typeof id !== 'string') return undefined;
  const row = await db(table)
    .where({ account_id: accountId, id, status: 'live' })
    .first<{ html_content: LocalisedText } | undefined>('html_content');
  return row?.html_content;
}

/**
 * The default email stylesheet: the class names templates use (container, content, field-table,
 * field-label, field-value, message-box, cta-button-primary), kept to CSS that mail clients support
 * once inlined.
 */
const DEFAULT_EMAIL_STYLE = `body { margin: 0; padding: 0; background-color: #f4f4f7; color: #1a1c1e; font-family: -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 16px; line-height: 1.5; }
.container { width: 100%; max-width: 600px; margin: 0 auto; padding: 24px 16px; background-color: #f4f4f7; }
.content { background-color: #ffffff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 32px 24px; }
.content h1, .content h2 { margin: 0 0 16px; color: #1a1c1e; line-height: 1.25; }
.content p { margin: 0 0 16px; }
.field-table { width: 100%; border-collapse: collapse; margin: 16px 0; }
.field-table td { padding: 8px 0; border-bottom: 1px solid #e2e8f0; vertical-align: top; }
.field-label { width: 40%; color: #64748b; font-size: 14px; font-weight: 600; }
.field-value { color: #1a1c1e; font-size: 14px; text-align: right; }
.message-box { margin: 16px 0; padding: 16px; background-color: #f5f3ff; border-left: 4px solid #7c3aed; border-radius: 4px; color: #1a1c1e; }
.cta-button-primary { display: inline-block; margin: 8px 0; padding: 12px 24px; background-color: #7c3aed; border-radius: 6px; color: #ffffff !important; font-weight: 600; text-align: center; text-decoration: none; }
`;

/** The default stylesheet, then the account's newest live email theme's CSS: later rules win, so the theme overrides the default. */
async function themeCss(db: Knex, accountId: string): Promise<string> {
  const theme = await db('email_theme')
    .where({ account_id: accountId, status: 'live' })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .first<{ style: string | null } | undefined>('style');
  return theme?.style ? `${DEFAULT_EMAIL_STYLE}\n${theme.style}` : DEFAULT_EMAIL_STYLE;
}

/**
 * An email template rendered for one member: subject and HTML in the given language, the linked live
 * header and footer as the `header` and `footer` partials (empty when absent, so `{{>header}}` never
 * fails), values HTML-escaped except in `{{{triple}}}`, and the theme's CSS inlined into `style`
 * attributes (rules that cannot be inlined, such as media queries, stay in a `<style>` element).
 */
export async function renderEmail(db: Knex, template: EmailTemplateRow, rendering: Rendering, account: AccountInfo): Promise<EmailContent> {
  const [sources, finish] = await Promise.all([emailSources(db, template, rendering.language, account), loadEmailFinish()]);
  return fillEmail(sources, finish, template, rendering, account);
}

/** The texts an email is rendered from in `language`: its subject and body, the linked header and footer, and the theme's CSS. */
async function emailSources(db: Knex, template: EmailTemplateRow, language: LanguageCode, account: AccountInfo) {
  // Sequential: the preview runs inside a transaction, whose queries share one connection.
  const header = await emailPart(db, 'email_header', account.id, template.email_header_id);
  const footer = await emailPart(db, 'email_footer', account.id, template.email_footer_id);
  const css = await themeCss(db, account.id);
  return {
    subject: textIn(template.subject, language, account),
    body: textIn(template.html_content, language, account),
    partials: { header: textIn(header, language, account), footer: textIn(footer, language, account) },
    css,
  };
}

/** The email filled in from its sources for one moment. */
function fillEmail(
  sources: Awaited<ReturnType<typeof emailSources>>,
  finish: EmailFinish,
  template: EmailTemplateRow,
  rendering: Rendering,
  account: AccountInfo,
): EmailContent {
  // Subject and body each with their values in the language they are read in (§7 may fall back from the member's).
  const content = writtenIn(rendering, template.html_content, account);
  // The body's field also answers for its header and footer, which it renders as partials.
  const body = renderField('htmlContent', () => render(sources.body, content.context, { escape: true, partials: sources.partials }));
  // A header value is one line: line breaks from variables would only be folded away by the mailer.
  const subject = renderField('subject', () => renderText(sources.subject, writtenIn(rendering, template.subject, account).context))
    .replace(/\s+/g, ' ')
    .trim();
  const html = finish.inline(body, sources.css);
  return { subject, html, text: finish.plainText(html) };
}

/** Where the preview's unsubscribe link points: a token that verifies for no member, so following it changes nothing. */
const PREVIEW_UNSUBSCRIBE_URL = '/u/preview';

/**
 * The sample moment a template preview is rendered for: built-in sample data for `eventCode`
 * (samples.ts) with the account's real organization and account, in `languageCode` (else the
 * account's default language).
 */
export async function sampleRendering(db: Knex, ctx: RequestContext, eventCode: EventCode, now: Date): Promise<Rendering> {
  const account = ctx.account!;
  // Every account belongs to an organization.
  const organization = await db('organization').where({ id: account.organizationId }).first<{ id: string; name: string }>('id', 'name');
  const language = ctx.languageCode ?? account.defaultLanguageCode;
  const member = sampleMember(account, language);
  const event = sampleEvent(account.id, member.id, eventCode, now, language);
  const { currencyName, currencyNameOne, tiers } = await loadPointsContext(db, account.id);
  // The sample member is in the sample Gold tier; the account's own tiers are not the sample's.
  const gold = sampleTier(true, now);
  const points = { currencyName, currencyNameOne, tiers: new Map([...tiers, [String(gold.id), gold]]) };
  return buildContext({ organization, account, member, event, unsubscribeUrl: PREVIEW_UNSUBSCRIBE_URL, points });
}

/**
 * The `render` action of email templates: the template against the sample moment of its
 * `sampleEventCode`, with the account's header, footer and theme.
 */
export async function renderPreview(
  db: Knex,
  ctx: RequestContext,
  template: EmailTemplateRow,
  now: Date,
): Promise<EmailContent & { unknownVariables: string[] }> {
  const account = ctx.account!;
  const rendering = await sampleRendering(db, ctx, template.sample_event_code, now);
  const [sources, finish] = await Promise.all([emailSources(db, template, rendering.language, account), loadEmailFinish()]);
  const content = fillEmail(sources, finish, template, rendering, account);
  // The header and footer are read where the body places them (a subject cannot place them).
  return { ...content, unknownVariables: unknownIn([sources.subject, sources.body], rendering, sources.partials) };
}

/** Each variable the sources read that the moment's data lacks, once, in the order first read; `partials` are those they may place. */
function unknownIn(sources: readonly string[], rendering: Rendering, partials?: Record<string, string>): string[] {
  return [...new Set(sources.flatMap((source) => unknownVariables(source, rendering.context, partials)))];
}

/** Renders one field of a template; a TemplateError names the field, so the merchant knows which text to mend. */
function renderField(field: string, fill: () => string): string {
  try {
    return fill();
  } catch (err) {
    if (err instanceof TemplateError) err.field ??= field;
    throw err;
  }
}

/**
 * A push, SMS or chat template's texts for one moment, as the sender fills them in: `text` a
 * localised field, its values formatted for the language it is read in (CONTRACT §7 may fall back
 * from the member's), and `template` a plain one (a chat template's parameters, a push template's
 * data values), formatted for `plainLanguage` (its provider template's), else the moment's. Each
 * names its field, which a TemplateError then carries.
 */
export function messageTexts(rendering: Rendering, account: AccountInfo, plainLanguage?: LanguageCode) {
  const plain = rendering.in(plainLanguage ?? rendering.language);
  const read: string[] = [];
  return {
    text: (map: unknown, field: string) => {
      const written = writtenIn(rendering, map, account);
      const source = textIn(map, written.language, account);
      read.push(source);
      return renderField(field, () => renderText(source, written.context));
    },
    template: (source: string, field: string) => {
      read.push(source);
      return renderField(field, () => renderText(source, plain.context));
    },
    /** The variables the texts filled in so far read that the moment lacks. */
    unknownVariables: () => unknownIn(read, rendering),
  };
}

/** A push template's texts as sent: title and body localised, and each value of its data map filled in too. */
export function pushTexts(fill: ReturnType<typeof messageTexts>, template: PushNotificationTemplateRow) {
  const { data } = template;
  return {
    title: fill.text(template.title, 'title'),
    body: fill.text(template.body, 'body'),
    data: data && Object.fromEntries(Object.entries(data).map(([key, value]) => [key, fill.template(value, `data.${key}`)])),
  };
}
