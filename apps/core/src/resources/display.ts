import { z } from 'zod';
import { writeLanguage } from '../records/context.js';
import { columnOf, type FieldDef, field, HTTP_OR_HTTPS, UNAMBIGUOUS_URL } from '../records/fields.js';
import { defineResource } from '../records/resource.js';
import { ADMIN_PUBLIC_READ, eudIcon, eudTitle, name, requiredDescription } from './common.js';

/** Upper bound of every pixel offset and size: far beyond any screen, small enough to be a mistake. */
const PX_MAX = 2000;

/*
 * Display fields with a default are `required` too: their columns are NOT NULL, so an explicit
 * null is refused (400) instead of reaching the database; an absent one takes the default.
 */
const px = (fallback: number, min = 0, max = PX_MAX) => field.integer({ min, max, default: fallback, required: true, public: true });
const colour = (fallback: string) => field.rgba({ default: fallback, required: true, public: true });

/** CSS functions a box-shadow may use; anything else (url(), image-set(), …) could fetch or inject. */
const SHADOW_FUNCTIONS = new Set(['rgb', 'rgba', 'hsl', 'hsla', 'var', 'calc']);
const boxShadow = z
  .string()
  .min(1)
  .max(256, { abort: true })
  // Both cases spelled out, not an `i` flag: the OpenAPI document publishes a pattern without its flags.
  .regex(/^[a-zA-Z0-9\s.,%()#+-]*$/, { message: 'Letters, digits, spaces and . , % ( ) # + - only', abort: true })
  .refine((v) => [...v.matchAll(/([a-z-]+)\s*\(/gi)].every((m) => SHADOW_FUNCTIONS.has(m[1]!.toLowerCase())), {
    message: `Only these CSS functions are allowed: ${[...SHADOW_FUNCTIONS].join(', ')}`,
  })
  .meta({
    description: `A CSS box-shadow of at most 256 characters: letters, digits, spaces and . , % ( ) # + -, calling no CSS function but ${[...SHADOW_FUNCTIONS].join(', ')}.`,
  });

/** The floating launcher's default shadow: three layers, from a tight contact shadow to a soft ambient one. */
export const DEFAULT_BOX_SHADOW = '0 1px 2px rgba(16, 24, 40, 0.06), 0 4px 8px rgba(16, 24, 40, 0.08), 0 12px 24px rgba(16, 24, 40, 0.12)';

export const floatingWidget = defineResource({
  slug: 'floating_widget',
  table: 'floating_widget',
  description: 'The floating launcher that opens the widget: placement, colours and label. A PATCH takes effect on the next page load.',
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: {
    name: name(),
    description: requiredDescription(),
    status: field.status({ default: 'live', required: true, description: 'End users and guests see live floating widgets only.' }),
    eudTitle: eudTitle(),
    eudIcon: eudIcon(),
    alignment: field.enum(['bottom_right', 'bottom_left', 'top_right', 'top_left'], {
      default: 'bottom_right',
      required: true,
      public: true,
    }),
    alignmentPositionX: { ...px(20), description: 'Horizontal offset in px from the aligned edge.' },
    alignmentPositionY: { ...px(20), description: 'Vertical offset in px from the aligned edge.' },
    backgroundColor: colour('rgba(255, 255, 255, 1)'),
    borderColor: colour('rgba(226, 232, 240, 1)'),
    textColor: colour('rgba(26, 28, 30, 1)'),
    borderWidth: px(1, 0, 100),
    borderRadius: px(8),
    boxShadow: {
      ...field.string({ default: DEFAULT_BOX_SHADOW, required: true, public: true }),
      schema: boxShadow,
    },
    fontSize: { ...px(18, 1, 200), description: 'Launcher label size in px.' },
  },
});

const fontFamily = z
  .string()
  .min(1)
  .max(256, { abort: true })
  .regex(/^[\p{L}\p{N}\s,'"_-]+$/u, { message: 'A CSS font-family list: names, quotes, commas and hyphens only' });

export const theme = defineResource({
  slug: 'theme',
  table: 'theme',
  description: "The widget's colours, font and corner radius, applied as CSS custom properties.",
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: {
    name: name(),
    status: field.status({ default: 'live', required: true, description: 'End users and guests see live themes only.' }),
    primaryColor: colour('rgba(124, 58, 237, 1)'),
    primaryContrastTextColor: colour('rgba(255, 255, 255, 1)'),
    secondaryColor: colour('rgba(237, 233, 254, 1)'),
    primaryTextColor: colour('rgba(26, 28, 30, 1)'),
    secondaryTextColor: colour('rgba(100, 116, 139, 1)'),
    backgroundColor: colour('rgba(255, 255, 255, 1)'),
    fontFamily: {
      ...field.string({
        default: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        required: true,
        public: true,
      }),
      schema: fontFamily,
    },
    borderRadius: px(12),
  },
});

/** A storefront path: one leading slash (not two: that would be another host), no spaces or backslashes. */
const STOREFRONT_PATH = /^\/(?:[^/\s\\][^\s\\]*)?$/;

/** A link target: an absolute http(s) URL, or a path on the storefront the widget runs in. */
const linkUrl = z
  .string()
  .max(2048, { abort: true })
  // The scheme in any case, as browsers read it; the rest as every parser reads it alike (no user information, backslash or white space).
  .refine((v) => STOREFRONT_PATH.test(v) || (UNAMBIGUOUS_URL.test(v) && URL.canParse(v)), {
    message: 'Expected an http(s) URL without user information, backslashes or white space, or a path starting with /',
  })
  .meta({ anyOf: [{ pattern: STOREFRONT_PATH.source }, { format: 'uri', pattern: `^${HTTP_OR_HTTPS}:` }] });

/*
 * English texts a widget shows when the template sets none. They are stored under `en` whatever
 * language the create is written in, so that they never pose as another language's text, and a
 * text written in another language does not leave English readers without one.
 */
const TEXT_DEFAULTS = {
  loggedInTitle: 'Your rewards',
  loggedInSubTitle: 'Keep going to unlock your next reward.',
  loggedOutTitle: 'Join our rewards program',
  loggedOutSubTitle: 'Sign up or log in to earn rewards for what you already do.',
  signUpButtonText: 'Sign up',
  logInButtonText: 'Log in',
  copiedMessage: 'Copied!',
  streaksTabTitle: 'Streaks',
  challengesTabTitle: 'Challenges',
  missionsTabTitle: 'Missions',
  rewardsTabTitle: 'Rewards',
} as const;

const text = (max: number, fallback: string): FieldDef =>
  field.string({ max, localisable: true, public: true, description: `Default (en): "${fallback}".` });
const link = (what: string): FieldDef => ({
  ...field.string({
    localisable: true,
    public: true,
    description: `Where the ${what} button leads: an absolute http(s) URL or a storefront path (starting with one /, no spaces or backslashes).`,
  }),
  schema: linkUrl,
});

const templateFields = {
  name: name(),
  status: field.status({ default: 'live', required: true, description: 'End users and guests see live templates only.' }),
  loggedInTitle: text(256, TEXT_DEFAULTS.loggedInTitle),
  loggedInSubTitle: text(1024, TEXT_DEFAULTS.loggedInSubTitle),
  loggedOutTitle: text(256, TEXT_DEFAULTS.loggedOutTitle),
  loggedOutSubTitle: text(1024, TEXT_DEFAULTS.loggedOutSubTitle),
  signUpButtonText: text(64, TEXT_DEFAULTS.signUpButtonText),
  signUpUrl: link('sign-up'),
  logInButtonText: text(64, TEXT_DEFAULTS.logInButtonText),
  logInUrl: link('log-in'),
  copiedMessage: text(64, TEXT_DEFAULTS.copiedMessage),
  streaksTabTitle: text(48, TEXT_DEFAULTS.streaksTabTitle),
  challengesTabTitle: text(48, TEXT_DEFAULTS.challengesTabTitle),
  missionsTabTitle: text(48, TEXT_DEFAULTS.missionsTabTitle),
  rewardsTabTitle: text(48, TEXT_DEFAULTS.rewardsTabTitle),
};

export const template = defineResource({
  slug: 'template',
  table: 'template',
  description: "The widget's texts (localisable) and its sign-up and log-in links.",
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: templateFields,
  async beforeCreate({ ctx, values, columns }) {
    const lang = writeLanguage(ctx);
    for (const fieldName of Object.keys(TEXT_DEFAULTS) as (keyof typeof TEXT_DEFAULTS)[]) {
      const fallback = TEXT_DEFAULTS[fieldName];
      const value = values[fieldName];
      // An explicit null clears the text, defaults included.
      if (value === null) continue;
      const texts = typeof value === 'string' ? { en: fallback, [lang]: value } : { en: fallback };
      columns[columnOf(fieldName, templateFields[fieldName])] = JSON.stringify(texts);
    }
  },
});
