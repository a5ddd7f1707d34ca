/**
 * The rewards editor's draft: a reward in the merchant's words (what the customer gets, how codes
 * are made, the minimum purchase, the products, combinations, expiry), how it becomes the core's
 * reward body and the app's issuing settings, and how the core's refusals land on its fields.
 */
import { DateTime, IANAZone } from 'luxon';
import { format } from '../i18n';
import type { Messages } from '../i18n/messages';
import { type CodeMaker, type IssuingSpec, type RewardKind, takesNoAmount } from '../shopify/reward-issuing';
import { type CoreDetail, detailWords } from './field-words';
import { numberOr } from './numbers';

export const MINIMUMS = ['none', 'subtotal', 'quantity'] as const;
export const EXPIRIES = ['never', 'days', 'date'] as const;

// A type alias, so that the draft is a JSON value the editor submits as it is.
export type RewardDraft = {
  id: string | null;
  name: string;
  description: string;
  title: string;
  instructions: string;
  kind: RewardKind;
  value: string;
  codes: CodeMaker;
  prefix: string;
  length: string;
  minimum: (typeof MINIMUMS)[number];
  minimumValue: string;
  /** Collection GIDs; none: all products. */
  collections: string[];
  /** A free product's variant: its GID and the title the editor shows ('' when none is chosen). */
  variantId: string;
  variantTitle: string;
  combinesOrder: boolean;
  combinesProduct: boolean;
  combinesShipping: boolean;
  expiry: (typeof EXPIRIES)[number];
  expiryDays: string;
  /** YYYY-MM-DD: the reward ends at the end of that day in the shop's time zone. */
  expiryDate: string;
  /** What redeeming it costs in points (CONTRACT §19); empty: it is only earned. */
  pointsCost: string;
};

export type DraftField = Exclude<keyof RewardDraft, 'id'>;

export function blankReward(): RewardDraft {
  return {
    id: null,
    name: '',
    description: '',
    title: '',
    instructions: '',
    kind: 'percentage',
    value: '',
    codes: 'shopify',
    prefix: '',
    length: '10',
    minimum: 'none',
    minimumValue: '',
    collections: [],
    variantId: '',
    variantTitle: '',
    combinesOrder: false,
    combinesProduct: false,
    combinesShipping: false,
    expiry: 'never',
    expiryDays: '',
    expiryDate: '',
    pointsCost: '',
  };
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The shop's time zone as Shopify names it, or UTC when it names none luxon knows: where the merchant's days are. */
export const zoneOf = (timezone: string | null): string => (timezone && IANAZone.isValidZone(timezone) ? timezone : 'UTC');

/** The last second of a day (YYYY-MM-DD) in the shop's time zone: when a reward with that last day ends. */
export function endOfDay(day: string, timezone: string | null): string {
  const end = DateTime.fromISO(day, { zone: zoneOf(timezone) }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 });
  return end.isValid ? end.toUTC().toISO()! : day;
}

/**
 * A reward's last day (YYYY-MM-DD): the day its end falls on in the shop's time zone. The editor
 * once saved the end of the day in UTC; an end at 23:59:59 UTC is the end of that UTC day in every
 * zone where it could be new (those at UTC+0), so it reads as that day and a save keeps it.
 */
function dayOf(instant: string, timezone: string | null): string {
  const end = DateTime.fromISO(instant, { zone: 'UTC' });
  if (!end.isValid) return instant.slice(0, 10);
  if (end.hour === 23 && end.minute === 59 && end.second === 59) return end.toISODate()!;
  return end.setZone(zoneOf(timezone)).toISODate()!;
}

/** The draft of a reward as the core has it, with the app's settings when the app issues it; days are the shop's. */
export function draftOf(
  record: Record<string, unknown> & { id: string },
  issued: boolean,
  spec: IssuingSpec | null,
  timezone: string | null,
): RewardDraft {
  const kind: RewardKind = spec?.kind ?? (record.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage');
  const minimum = spec?.minimum;
  return {
    id: record.id,
    name: str(record.name),
    description: str(record.description),
    title: str(record.eudTitle),
    instructions: str(record.eudRedeemInstructionMessage),
    kind,
    value: takesNoAmount(kind) ? '' : str(record.discountValue),
    codes: issued ? 'shopify' : record.handleCouponAutoGeneration ? 'generate' : 'upload',
    prefix: str(record.couponCodePrefix),
    length: str(record.couponCodeLength ?? 10),
    minimum: minimum && 'subtotal' in minimum ? 'subtotal' : minimum && 'quantity' in minimum ? 'quantity' : 'none',
    minimumValue: minimum ? String('subtotal' in minimum ? minimum.subtotal : minimum.quantity) : '',
    collections: spec?.collections.map((c) => c.id) ?? [],
    variantId: spec?.variant?.id ?? '',
    variantTitle: spec?.variant?.title ?? '',
    combinesOrder: spec?.combinesWith.orderDiscounts ?? false,
    combinesProduct: spec?.combinesWith.productDiscounts ?? false,
    combinesShipping: spec?.combinesWith.shippingDiscounts ?? false,
    expiry: record.rewardExpiryType === 'relative' ? 'days' : record.rewardExpiryType === 'absolute' ? 'date' : 'never',
    expiryDays: str(record.rewardExpiryInDays),
    expiryDate: typeof record.rewardExpiryAt === 'string' ? dayOf(record.rewardExpiryAt, timezone) : '',
    pointsCost: str(record.pointsCost),
  };
}

/** The kinds only the app can issue: uploaded or generated codes could not say which shipping or product is free, nor credit anything. */
export const onlyByApp = (kind: RewardKind) => takesNoAmount(kind) || kind === 'store_credit';

/** Whether the app issues the reward itself (a Shopify discount or store credit) rather than the core's codes. */
export const issuedByApp = (d: RewardDraft) => onlyByApp(d.kind) || d.codes === 'shopify';

/** What the editor's texts give a new reward the merchant left without them. */
export interface DefaultTexts {
  instructionsStoreCredit: string;
  /** With `{product}`. */
  instructionsFreeProduct: string;
  titleFreeShipping: string;
  /** With `{product}`. */
  titleFreeProduct: string;
}

/**
 * The title shoppers see for a reward without one of its own: the core's reward has no amount to
 * show for free shipping or a free product, so without it the widget would name nothing it gives.
 */
function defaultTitle(d: RewardDraft, texts: DefaultTexts): string | null {
  if (d.kind === 'free_shipping') return texts.titleFreeShipping;
  if (d.kind === 'free_product' && d.variantTitle.trim()) return format(texts.titleFreeProduct, { product: d.variantTitle.trim() });
  return null;
}

/** How a new reward without instructions of the merchant's is used, where it is not the usual code at checkout. */
function defaultInstructions(d: RewardDraft, texts: DefaultTexts): string | null {
  if (d.id) return null;
  if (d.kind === 'store_credit') return texts.instructionsStoreCredit;
  if (d.kind === 'free_product' && d.variantTitle.trim()) return format(texts.instructionsFreeProduct, { product: d.variantTitle.trim() });
  return null;
}

/**
 * The core's reward body. Free shipping and a free product have no amount of their own (0), and
 * their title says what they give; store credit's amount is its value; a last day ends at its end
 * in the shop's time zone, as the merchant means it.
 */
export function coreBody(d: RewardDraft, texts: DefaultTexts, timezone: string | null): Record<string, unknown> {
  const title = d.title.trim() ? d.title : defaultTitle(d, texts);
  const instructions = d.instructions.trim() ? d.instructions : defaultInstructions(d, texts);
  const generate = !issuedByApp(d) && d.codes === 'generate';
  return {
    name: d.name,
    description: d.description.trim() ? d.description : d.name,
    discountType: d.kind === 'percentage' ? 'percentage' : 'fixed_amount',
    discountValue: takesNoAmount(d.kind) ? 0 : numberOr(d.value),
    rewardExpiryType: d.expiry === 'days' ? 'relative' : d.expiry === 'date' ? 'absolute' : 'no_expiry',
    ...(d.expiry === 'days' && d.expiryDays.trim() ? { rewardExpiryInDays: numberOr(d.expiryDays) } : {}),
    ...(d.expiry === 'date' && d.expiryDate ? { rewardExpiryAt: endOfDay(d.expiryDate, timezone) } : {}),
    // The app issues Shopify discounts and store credit itself, so the core must not hand out a code.
    handleCoupon: !issuedByApp(d),
    handleCouponAutoGeneration: generate,
    ...(generate ? { couponCodePrefix: d.prefix.trim(), couponCodeLength: numberOr(d.length) } : {}),
    pointsCost: d.pointsCost.trim() ? numberOr(d.pointsCost) : null,
    ...(title ? { eudTitle: title } : {}),
    ...(instructions ? { eudRedeemInstructionMessage: instructions } : {}),
  };
}

/** The app's settings for a reward it issues; null when the core's codes issue it. */
export function specOf(d: RewardDraft, currencyCode: string, collections: { id: string; title: string }[]): IssuingSpec | null {
  if (!issuedByApp(d)) return null;
  const value = Number(d.minimumValue);
  const discount = d.kind !== 'store_credit';
  return {
    kind: d.kind,
    minimum: !discount || d.minimum === 'none' ? null : d.minimum === 'subtotal' ? { subtotal: value } : { quantity: value },
    collections: d.kind === 'percentage' || d.kind === 'fixed_amount' ? collections.filter((c) => d.collections.includes(c.id)) : [],
    variant: d.kind === 'free_product' && d.variantId ? { id: d.variantId, title: d.variantTitle } : null,
    combinesWith: {
      orderDiscounts: discount && d.combinesOrder,
      productDiscounts: discount && d.combinesProduct,
      shippingDiscounts: discount && d.combinesShipping,
    },
    currencyCode,
  };
}

export type Words = Messages['rewards']['editor']['checks'];

/** Today in the shop's time zone (YYYY-MM-DD), else where the code runs. */
export const todayIn = (timezone: string | null): string =>
  (timezone ? DateTime.now().setZone(zoneOf(timezone)) : DateTime.now()).toISODate()!;

/**
 * The app's own checks, before the core is asked: what the core cannot check (minimums,
 * collections, a free product's product, a last day that has passed by `today`), a name of nothing
 * but spaces, and an amount off that takes nothing off.
 */
export function checkDraft(d: RewardDraft, words: Words, today: string): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  // The core takes a name of spaces, which no list could show or link; an empty one is the core's to name.
  if (d.name && !d.name.trim()) errors.name = words.required;
  const value = Number(d.value);
  if (!takesNoAmount(d.kind) && d.value.trim() && Number.isFinite(value) && value <= 0) errors.value = words.positive;
  if (d.kind === 'free_product' && !d.variantId) errors.variantId = words.product;
  if (issuedByApp(d) && d.kind !== 'store_credit' && d.minimum !== 'none') {
    const n = Number(d.minimumValue);
    if (!d.minimumValue.trim() || !Number.isFinite(n) || n <= 0) errors.minimumValue = words.positive;
    else if (d.minimum === 'quantity' && !Number.isInteger(n)) errors.minimumValue = words.whole;
  }
  const lastDay = d.expiry === 'date' && d.expiryDate ? lastDayRefusal(d.expiryDate, today, words) : null;
  if (lastDay) errors.expiryDate = lastDay;
  return errors;
}

/** A day as the editors' date fields hold it: YYYY-MM-DD. */
const isDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text);

/** What is wrong with a last day (YYYY-MM-DD) on `today`, a day of the shop's: not a day, or passed. */
export function lastDayRefusal(day: string, today: string, words: Pick<Words, 'date' | 'past'>): string | null {
  if (!isDay(day)) return words.date;
  return day < today ? words.past : null;
}

/** A last day (YYYY-MM-DD) as `language` writes it ("7 January 2027"); null while the field holds no day. */
export const dayText = (day: string, language: string): string | null =>
  isDay(day) ? new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`)) : null;

/** The core's field names on the editor's fields. */
const FIELD_OF: Record<string, DraftField> = {
  name: 'name',
  description: 'description',
  eudTitle: 'title',
  eudRedeemInstructionMessage: 'instructions',
  discountType: 'kind',
  discountValue: 'value',
  rewardExpiryType: 'expiry',
  rewardExpiryInDays: 'expiryDays',
  rewardExpiryAt: 'expiryDate',
  handleCoupon: 'codes',
  handleCouponAutoGeneration: 'codes',
  couponCodePrefix: 'prefix',
  couponCodeLength: 'length',
  pointsCost: 'pointsCost',
};

/**
 * The core's refusal of a reward (CONTRACT §2 details: field and code) in the merchant's words, on
 * the editor's fields; a detail naming no field of the form goes to the page's banner (`form`).
 */
export function refusalsOnFields(
  details: CoreDetail[],
  words: Words,
  language: string,
): { fields: Partial<Record<DraftField, string>>; form: string[] } {
  const fields: Partial<Record<DraftField, string>> = {};
  const form: string[] = [];
  for (const d of details) {
    const field = d.field ? FIELD_OF[d.field] : undefined;
    const kind = {
      number: field === 'value' || field === 'expiryDays' || field === 'length' || field === 'pointsCost',
      percentage: field === 'value',
      prefix: field === 'prefix',
    };
    if (field) fields[field] ??= detailWords(d, words, language, kind);
    else form.push(words.unexpected);
  }
  return { fields, form: [...new Set(form)] };
}
