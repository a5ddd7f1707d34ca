import de from './languages/de.js';
import es from './languages/es.js';
import fr from './languages/fr.js';
import it from './languages/it.js';
import ja from './languages/ja.js';
import ko from './languages/ko.js';
import pt from './languages/pt.js';
import zhCN from './languages/zh-CN.js';

/**
 * The few interface words the template does not carry, per language the API accepts. The
 * merchant's own texts (titles, buttons, the copied message) come from the template.
 */
export interface Strings {
  loading: string;
  error: string;
  retry: string;
  close: string;
  copy: string;
  next: string;
  reached: string;
  empty: string;
  pending: string;
  /** `{date}`: when a held reward's code is issued (CONTRACT §17). */
  heldUntil: string;
  /** A reward a refund or cancellation took back. */
  revoked: string;
  completed: string;
  /** `{n}`: consecutive periods. */
  inARow: string;
  /** `{n}`: how often something was done (a mission's completions). */
  times: string;
  /** `{d}` of `{n}` tasks. */
  tasks: string;
  daily: string;
  weekly: string;
  monthly: string;
  leaderboard: string;
  /** The tabs' titles where the template has none in any language. */
  streaks: string;
  challenges: string;
  missions: string;
  rewards: string;
  /** The member's own row on a leaderboard. */
  you: string;
  /** `{n}`: members on the leaderboard. */
  ranked: string;
  notRanked: string;
  /** `{n}`: streak freezes the member holds. */
  freezes: string;
  /** A period a freeze covered. */
  frozen: string;
  /** `{v}`: what a reward takes off, a formatted percentage or amount of the shop's currency. */
  off: string;
  /** The Rewards tab of a guest: the header above already has the sign-in buttons. */
  signInForRewards: string;
  /** What points are called when the merchant has not named them (CONTRACT §19). */
  points: string;
  /** One of them, where the language says one apart from others (1 Point, 2 Points). */
  point: string;
  waysToEarn: string;
  /** Points per unit of the shop's currency: `{amount}` is one unit of it (`€1`), or `1` where the storefront does not say which. */
  perSpend: string;
  perOrder: string;
  onSignUp: string;
  onNewsletter: string;
  /** A way to earn and a history entry: `{network}` is a social network's name ("Instagram"), whose profile of the shop the member may follow once for points. */
  followOn: string;
  /** The button that opens the profile and credits the follow. */
  follow: string;
  /** Beside a profile the member has followed (for points) already. */
  followed: string;
  followFailed: string;
  /** A bonus points event: its multiplier `{n}` and when it ends, `{date}`. */
  bonusUntil: string;
  /** A way to earn and a history entry: the member's birthday; the heading of the birthday card. */
  onBirthday: string;
  /** `{points}`: what the member gets on their birthday, with its name. */
  birthdayAsk: string;
  /** `{date}`: the member's birthday, as their language writes a month and day. */
  birthdayOn: string;
  /** Under the birthday question: a birthday entered less than 30 days before it earns from the next year on. */
  birthdayNotice: string;
  month: string;
  day: string;
  save: string;
  birthdayFailed: string;
  /** A way to earn: a new customer's first order through the member's referral link; the heading of the referral card. */
  referFriend: string;
  /** `{gives}`: what a referred friend gets on their first order; `{gets}`: what the member gets once it is placed. */
  referralBoth: string;
  /** `{gives}` as in `referralBoth`, where the member gets nothing for it. */
  referralGives: string;
  /** `{gets}` as in `referralBoth`, where the friend gets nothing beside what the order earns. */
  referralGets: string;
  /** `{gift}`: what the shop gives a referred friend (the title of its reward, as the shop wrote it); `{gets}` as in `referralBoth`. */
  referralGiftBoth: string;
  /** `{gift}` as in `referralGiftBoth`, where the member gets nothing for it. */
  referralGift: string;
  /** The heading of the card that offers a referred friend the shop's gift, a code for their first order. */
  giftFromFriend: string;
  /** Under the gift's title, the e-mail address field's label: what the address is asked for. */
  giftAsk: string;
  /** The button that claims the gift's code. */
  getCode: string;
  /** The link that applies the gift's code to the cart. */
  applyCode: string;
  /** The gift refused: that e-mail address has ordered before. */
  giftFirstOrder: string;
  /** The gift refused: that e-mail address is the referrer's own. */
  giftOwnLink: string;
  /** The gift's code could not be had for any other reason. */
  giftFailed: string;
  /** The label of the field that shows the member's referral link. */
  yourLink: string;
  /** The button that copies the referral link. */
  copyLink: string;
  toRedeem: string;
  redeem: string;
  /** `{n}`: the points a member still lacks for a reward, with their name. */
  toGo: string;
  /** `{name}`: what points are called. */
  notEnough: string;
  redeemed: string;
  /** `{n}`: the points still to earn, with their name; `{tier}`: the next tier. */
  toNextTier: string;
  /** `{n}` as in `toNextTier`, for a next tier without a title (the tier's name is not public). */
  toNextTierPlain: string;
  /** The member's tier where it has no title. */
  yourTier: string;
  signInToRedeem: string;
  /** Beside the balance of a member the shop has paused (a Shopify customer tag leaves them out, say): why nothing can be redeemed. */
  paused: string;
  /** A reward that gave points: they went to the balance (its amount may be the tier's multiple). */
  credited: string;
  /** `{date}`: when a code or credit stopped working. */
  expired: string;
  /** The heading of a member's point entries (the customer account page's and the widget's history). */
  history: string;
  /**
   * Points earned from something the history cannot name. This and the other rows' words are nouns
   * where a participle would agree with the shop's name for points ("Gagnés" beside "Étoiles").
   */
  historyEarned: string;
  /** `{name}`: the order's name ("#1001"). */
  historyOrder: string;
  /** An order placed in a bonus points event: `{name}` as in `historyOrder`, `{n}` the event's multiplier. */
  historyOrderBonus: string;
  /** Points the member earned when a friend they referred placed their first order. */
  historyReferral: string;
  /** Points a referred friend earned on their first order. */
  historyReferred: string;
  /** `{title}`: the reward bought. */
  historyRedeemed: string;
  /** `{what}`: what the taken-back points came from. */
  historyTakenBack: string;
  /** Points taken back from something the history cannot name. */
  historyTakenBackPlain: string;
  historyExpired: string;
  /** An adjustment by the shop without a note. */
  historyAdjusted: string;
  /** `{points}`: the member's balance with its name; `{date}`: when it expires without an entry before (CONTRACT §19). */
  expiresOn: string;
  /** A paused member's expiry: they cannot earn or redeem to keep their points. */
  expiresOnPaused: string;
  /** Beside a guest's launcher, once a session: `{points}` what creating an account earns. */
  nudgeJoin: string;
  /** Beside a member's launcher, once a session: `{points}` their balance, `{reward}` the best reward it covers. */
  nudgeRedeem: string;
}

/** English: the words of every language the interface does not speak, and the widget's own (the others are chunks of their own, `languages/`). */
export const en: Strings = {
  loading: 'Loading…',
  error: 'Rewards are unavailable right now.',
  retry: 'Try again',
  close: 'Close',
  copy: 'Copy code',
  next: 'Next',
  reached: 'Reached',
  empty: 'Nothing here yet.',
  pending: 'Your code is on its way.',
  heldUntil: 'Yours on {date}, once the return window has passed.',
  revoked: 'Taken back: the purchase that earned it was returned or cancelled.',
  completed: 'Completed',
  inARow: '{n} in a row',
  times: '{n}×',
  tasks: '{d} of {n} tasks done',
  daily: 'Today',
  weekly: 'This week',
  monthly: 'This month',
  leaderboard: 'Leaderboard',
  streaks: 'Streaks',
  challenges: 'Challenges',
  missions: 'Missions',
  rewards: 'Rewards',
  you: 'You',
  ranked: '{n} ranked',
  notRanked: 'You are not ranked yet.',
  freezes: 'Freezes: {n}',
  frozen: 'Frozen',
  off: '{v} off',
  signInForRewards: 'Sign in to see the rewards you have earned.',
  points: 'Points',
  point: 'Point',
  waysToEarn: 'Ways to earn',
  perSpend: 'For every {amount} spent',
  perOrder: 'Every order',
  onSignUp: 'Creating an account',
  onNewsletter: 'Subscribing to our newsletter',
  followOn: 'Following us on {network}',
  follow: 'Follow',
  followed: 'Followed',
  bonusUntil: '{n}× points on orders until {date}',
  followFailed: 'That did not work. Please try again.',
  onBirthday: 'Your birthday',
  birthdayAsk: 'Tell us your birthday and get {points} on it.',
  birthdayOn: 'Your birthday: {date}',
  birthdayNotice: 'A birthday less than 30 days away counts from next year.',
  month: 'Month',
  day: 'Day',
  save: 'Save',
  birthdayFailed: 'Your birthday could not be saved. Please try again.',
  referFriend: 'Refer a friend',
  referralBoth: 'Give friends {gives} on their first order and get {gets} when they place it.',
  referralGives: 'Give friends {gives} on their first order.',
  referralGets: 'Get {gets} when a friend you refer places their first order.',
  referralGiftBoth: 'Friends get “{gift}”, and you get {gets} when they place their first order.',
  referralGift: 'Friends you refer get “{gift}”.',
  giftFromFriend: 'A gift from a friend',
  giftAsk: 'Enter your e-mail to get your code.',
  getCode: 'Get my code',
  applyCode: 'Apply to my cart',
  giftFirstOrder: "This gift is for a customer's first order.",
  giftOwnLink: 'This is your own link.',
  giftFailed: "We couldn't get your code. Please try again.",
  yourLink: 'Your referral link',
  copyLink: 'Copy link',
  toRedeem: 'Rewards to redeem',
  redeem: 'Redeem',
  toGo: '{n} to go',
  notEnough: 'Not enough {name} for this reward.',
  redeemed: 'Redeemed!',
  toNextTier: '{n} to {tier}',
  toNextTierPlain: '{n} to the next tier',
  yourTier: 'Your tier',
  signInToRedeem: 'Sign in to redeem.',
  paused: 'Your membership is paused: you can’t earn or redeem for now.',
  credited: 'Added to your balance.',
  expired: 'Expired on {date}.',
  history: 'History',
  historyEarned: 'Earned',
  historyOrder: 'Order {name}',
  historyOrderBonus: 'Order {name} · {n}× points',
  historyReferral: 'A friend you referred',
  historyReferred: 'Referred by a friend',
  historyRedeemed: 'Redeemed: {title}',
  historyTakenBack: 'Taken back: {what}',
  historyTakenBackPlain: 'Taken back',
  historyExpired: 'Expired',
  historyAdjusted: 'Adjusted by the shop',
  expiresOn: 'Your balance of {points} expires on {date} unless you earn or redeem before then.',
  expiresOnPaused: 'Your balance of {points} expires on {date}.',
  nudgeJoin: 'Create an account and get {points}.',
  nudgeRedeem: 'You have {points}: enough for {reward}.',
};

const LANGUAGES: Record<string, Strings> = { en, fr, es, de, it, pt, ja, ko, 'zh-CN': zhCN };

export const stringsFor = (languageCode: string | undefined): Strings => LANGUAGES[languageCode ?? 'en'] ?? en;

/**
 * A Shopify page's language (`localization.language.isoCode`) as the interface speaks it: the
 * exact tag, else its base language (any Chinese reads zh-CN), else English. The UI extensions'
 * own words come in the same nine languages.
 */
export function pageLanguage(isoCode: string): string {
  if (LANGUAGES[isoCode]) return isoCode;
  const base = isoCode.split('-')[0] ?? '';
  return LANGUAGES[base] ? base : isoCode.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** Intl formats in the widget's language, or English where the browser does not know it. */
export function numberFormat(lang: string | undefined, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  try {
    return new Intl.NumberFormat(lang, options);
  } catch {
    return new Intl.NumberFormat('en', options);
  }
}

/** How `lang` counts (one, other, …), English's way for a tag the runtime refuses. */
export function pluralRules(lang: string | undefined): Intl.PluralRules {
  try {
    return new Intl.PluralRules(lang);
  } catch {
    return new Intl.PluralRules('en');
  }
}

/**
 * An amount of the shop's currency as the shopper's language writes it (`€5`, `5 €`, `€7.50`), without
 * cents when it is whole; null without a currency or for a code Intl does not know.
 */
export function moneyText(amount: number, currency: string | undefined, lang: string | undefined): string | null {
  if (!currency) return null;
  const whole = Number.isInteger(amount) ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {};
  try {
    return numberFormat(lang, { style: 'currency', currency, ...whole }).format(amount);
  } catch {
    return null;
  }
}

export function dateFormat(lang: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(lang, options);
  } catch {
    return new Intl.DateTimeFormat('en', options);
  }
}

/** Fills `{name}` placeholders. */
export const fill = (text: string, values: Record<string, string | number>): string =>
  text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
