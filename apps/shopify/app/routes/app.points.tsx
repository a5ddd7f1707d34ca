import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { Link, type ShouldRevalidateFunction, useLoaderData } from '@remix-run/react';
import { networkName, SOCIAL_NETWORKS, type SocialNetwork } from '@loyalty/view-model';
import { BlockStack, Checkbox, FormLayout, InlineGrid, InlineStack, Layout, Select, Text, TextField } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import { syncWidgetMetafields } from '../admin/widget-metafields.server';
import { refusalInWords } from '../admin/refusals';
import { EditorFrame } from '../components/EditorFrame';
import { TitledCard } from '../components/TitledCard';
import { type EditorAnswer, useEditorDraft } from '../components/useEditorDraft';
import { records, type RecordOf, updateFromValues } from '../core/records.server';
import { numberOr } from '../admin/numbers';
import { fetchShop, shopCurrency } from '../shopify/admin-api.server';
import { DateTime } from 'luxon';
import { zoneOf } from '../admin/reward-draft';
import { claimedLanguage, format, type Messages } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { failureResponse } from '../core/failure';
import { PointsImport } from '../components/PointsImport';
import { importsOf } from '../points-import/imports.server';
import { pool } from '../storage/pool.server';
import { CLAIMS_PER_DAY, giftChoices, giftFigures } from '../earning/referral-gifts.server';
import { excludedTags, exclusionsNow, MAX_EXCLUDED_TAGS, MAX_TAG_LENGTH, saveExcludedTags } from '../earning/exclusions.server';
import { tagKey } from '../shopify/order-payloads.server';
import { outbox } from '../loop/outbox.server';

/**
 * The account's points program (CONTRACT §19 `points_setting`, one per account): on or off, how
 * orders, sign-ups, newsletter subscriptions, birthdays, referrals and follows of the shop's social
 * profiles earn (the earning worker applies these rates, the widget shows them and the profiles set)
 * and the gift a referred friend claims (referral-gifts.server.ts), a bonus points event (orders
 * earn times its multiplier from its first day to its last, in the shop's time zone), how
 * long points last (months of inactivity before they expire, months that count towards tiers: the
 * core's daily pass applies both), what shoppers call points (saved in the shop's default language),
 * the customer tags that leave customers out of the whole program (kept by the app,
 * exclusions.server.ts); and balances brought from another loyalty app (PointsImport).
 */

type Setting = RecordOf<'points_setting'>;

/** A social profile of the shop, by the core's field (`instagramUrl`). */
type Profile = `${SocialNetwork}Url`;
const profileOf = (network: SocialNetwork): Profile => `${network}Url`;

/** Where each network's profiles are, for the examples: the core refuses an address on another host. */
const PROFILE_AT: Readonly<Record<SocialNetwork, string>> = {
  instagram: 'https://www.instagram.com/',
  tiktok: 'https://www.tiktok.com/@',
  facebook: 'https://www.facebook.com/',
  youtube: 'https://www.youtube.com/@',
  x: 'https://x.com/',
  pinterest: 'https://www.pinterest.com/',
};

/** An example of a profile's address on `network`, `handle` standing for the shop's name there. */
const exampleOf = (network: SocialNetwork, handle: string) => PROFILE_AT[network] + handle;

/** A value for each profile, by its field. */
const eachProfile = <T,>(value: (network: SocialNetwork) => T) =>
  Object.fromEntries(SOCIAL_NETWORKS.map((network) => [profileOf(network), value(network)])) as Record<Profile, T>;

/** The form's fields as typed, each profile's address ('' for none) under its field's name. */
export interface PointsDraft extends Record<Profile, string> {
  on: boolean;
  perUnit: string;
  perOrder: string;
  onSignUp: string;
  onNewsletter: string;
  onBirthday: string;
  onFollow: string;
  onReferral: string;
  onReferredOrder: string;
  /** The reward a referred friend claims (referralRewardId); '' for none. */
  friendGift: string;
  /** A bonus points event: its multiplier ('1': none) and its first and last days (YYYY-MM-DD) in the shop's time zone. */
  bonus: string;
  bonusFirstDay: string;
  bonusLastDay: string;
  expiryMonths: string;
  tierWindowMonths: string;
  currencyName: string;
  currencyNameOne: string;
  /** The customer tags that leave a customer out of the program, comma-separated as typed (exclusions.server.ts). */
  excludedTags: string;
}

/** The multipliers offered for a bonus points event; '1' is none. */
const BONUSES = ['1', '1.5', '2', '3'] as const;

/** The day (YYYY-MM-DD) an instant falls on in the shop's time zone; an event's end is the next day's start, so its last day is the one before. */
const dayOf = (instant: string | null | undefined, zone: string, end = false): string => {
  if (!instant) return '';
  const at = DateTime.fromISO(instant, { zone });
  return (end ? at.minus({ milliseconds: 1 }) : at).toISODate() ?? '';
};

/** The start of a day (YYYY-MM-DD) in the shop's time zone, or of the day after it; null for none. */
const dayStart = (day: string, zone: string, after = false): string | null => {
  const start = DateTime.fromISO(day, { zone }).startOf('day');
  return start.isValid ? (after ? start.plus({ days: 1 }) : start).toUTC().toISO() : null;
};

const draftOf = (s: Setting, zone: string, excluded: string[]): PointsDraft => ({
  on: s.status === 'live',
  perUnit: String(s.pointsPerCurrencyUnit ?? 0),
  perOrder: String(s.pointsPerOrder ?? 0),
  onSignUp: String(s.pointsOnSignUp ?? 0),
  onNewsletter: String(s.pointsOnNewsletter ?? 0),
  onBirthday: String(s.pointsOnBirthday ?? 0),
  onFollow: String(s.pointsOnFollow ?? 0),
  ...eachProfile((network) => s[profileOf(network)] ?? ''),
  onReferral: String(s.pointsOnReferral ?? 0),
  onReferredOrder: String(s.pointsOnReferredOrder ?? 0),
  friendGift: s.referralRewardId ?? '',
  bonus: BONUSES.find((b) => Number(b) === (s.bonusMultiplier ?? 1)) ?? String(s.bonusMultiplier ?? 1),
  bonusFirstDay: dayOf(s.bonusStartsAt, zone),
  bonusLastDay: dayOf(s.bonusEndsAt, zone, true),
  expiryMonths: String(s.expiryMonthsOfInactivity ?? 0),
  tierWindowMonths: String(s.tierWindowMonths ?? 12),
  currencyName: s.eudCurrencyName ?? '',
  currencyNameOne: s.eudCurrencyNameOne ?? '',
  excludedTags: excluded.join(', '),
});

/** The excluded tags as typed: split at commas, each once whatever its case, in the order typed. */
function tagsTyped(text: string): string[] {
  const seen = new Set<string>();
  return text.split(',').flatMap((typed) => {
    const tag = typed.trim();
    if (!tag || seen.has(tagKey(tag))) return [];
    seen.add(tagKey(tag));
    return [tag];
  });
}

/** The account's one setting: the core makes it with the account. */
async function theSetting(api: Awaited<ReturnType<typeof authenticateShop>>['api']): Promise<Setting> {
  const listed = await records(api, 'points_setting').list({ limit: 1 });
  if (!listed.ok) throw failureResponse(listed.failure);
  const setting = listed.data[0];
  if (!setting) throw new Response('The account has no points setting.', { status: 404 });
  return setting;
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, admin, session } = await authenticateShop(request);
  const [setting, currencyCode, shop, imports, gifts, giftsLately, excluded, exclusions] = await Promise.all([
    theSetting(api),
    shopCurrency(admin),
    // An event's days are the shop's.
    fetchShop(admin),
    importsOf(pool(), session.shop),
    giftChoices(api, session.shop, outbox),
    giftFigures(pool(), session.shop, GIFT_DAYS),
    excludedTags(pool(), session.shop),
    exclusionsNow(pool(), session.shop),
  ]);
  return {
    id: setting.id,
    draft: draftOf(setting, zoneOf(shop.ianaTimezone), excluded),
    currencyCode,
    imports,
    gifts,
    giftsLately,
    claimsPerDay: CLAIMS_PER_DAY,
    exclusions,
  };
};

/** The days the gift's figures look back. */
const GIFT_DAYS = 30;

const FIELD_OF: Record<string, keyof PointsDraft> = {
  status: 'on',
  pointsPerCurrencyUnit: 'perUnit',
  pointsPerOrder: 'perOrder',
  pointsOnSignUp: 'onSignUp',
  pointsOnNewsletter: 'onNewsletter',
  pointsOnBirthday: 'onBirthday',
  pointsOnFollow: 'onFollow',
  pointsOnReferral: 'onReferral',
  pointsOnReferredOrder: 'onReferredOrder',
  referralRewardId: 'friendGift',
  bonusMultiplier: 'bonus',
  bonusStartsAt: 'bonusFirstDay',
  bonusEndsAt: 'bonusLastDay',
  expiryMonthsOfInactivity: 'expiryMonths',
  tierWindowMonths: 'tierWindowMonths',
  eudCurrencyName: 'currencyName',
  eudCurrencyNameOne: 'currencyNameOne',
};

const labelsOf = (m: Messages['editors']['points']): Record<keyof PointsDraft, string> => ({
  on: m.on.label,
  perUnit: m.perUnit.label,
  perOrder: m.perOrder.label,
  onSignUp: m.onSignUp.label,
  onNewsletter: m.onNewsletter.label,
  onBirthday: m.onBirthday.label,
  onFollow: m.onFollow.label,
  ...eachProfile((network) => format(m.profiles.label, { network: networkName(network) })),
  onReferral: m.onReferral.label,
  onReferredOrder: m.onReferredOrder.label,
  friendGift: m.friendGift.label,
  bonus: m.bonus.label,
  bonusFirstDay: m.bonus.firstDay,
  bonusLastDay: m.bonus.lastDay,
  expiryMonths: m.expiry.label,
  tierWindowMonths: m.tierWindow.label,
  currencyName: m.currency.label,
  currencyNameOne: m.currencyOne.label,
  excludedTags: m.excluded.label,
});

export const action = async ({ request }: ActionFunctionArgs): Promise<EditorAnswer<PointsDraft>> => {
  const { api, admin, session } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const language = claimedLanguage(input.language, request);
  const words = ADMIN_MESSAGES[language].editors;
  const d = objectOf(input.draft);
  if (input.intent !== 'save' || typeof d.on !== 'boolean')
    throw new Response('The body must be {"intent": "save", "draft": {…}}.', { status: 400 });
  const text = (key: string) => (typeof d[key] === 'string' ? d[key] : '');
  const tags = tagsTyped(text('excludedTags'));
  const tagsWrong =
    tags.length > MAX_EXCLUDED_TAGS
      ? format(words.points.excluded.tooMany, { max: MAX_EXCLUDED_TAGS })
      : tags.some((t) => t.length > MAX_TAG_LENGTH)
        ? format(words.points.excluded.tooLong, { max: MAX_TAG_LENGTH })
        : null;
  if (tagsWrong) return { ok: false, refusal: { message: words.frame.refused, fieldErrors: { excludedTags: tagsWrong } } };
  const [setting, shop] = await Promise.all([theSetting(api), fetchShop(admin)]);
  const zone = zoneOf(shop.ianaTimezone);
  // No event: its days go with it. One: from the start of its first day to the start of the day after its last.
  const bonus = numberOr(text('bonus'));
  const event = bonus !== 1;
  const saved = await updateFromValues(api, 'points_setting', setting.id, {
    status: d.on ? 'live' : 'draft',
    pointsPerCurrencyUnit: numberOr(text('perUnit')),
    pointsPerOrder: numberOr(text('perOrder')),
    pointsOnSignUp: numberOr(text('onSignUp')),
    pointsOnNewsletter: numberOr(text('onNewsletter')),
    pointsOnBirthday: numberOr(text('onBirthday')),
    pointsOnFollow: numberOr(text('onFollow')),
    ...eachProfile((network) => text(profileOf(network)).trim() || null),
    pointsOnReferral: numberOr(text('onReferral')),
    pointsOnReferredOrder: numberOr(text('onReferredOrder')),
    referralRewardId: text('friendGift') || null,
    bonusMultiplier: bonus,
    bonusStartsAt: event ? dayStart(text('bonusFirstDay'), zone) : null,
    bonusEndsAt: event ? dayStart(text('bonusLastDay'), zone, true) : null,
    expiryMonthsOfInactivity: numberOr(text('expiryMonths')),
    tierWindowMonths: numberOr(text('tierWindowMonths')),
    eudCurrencyName: text('currencyName').trim() || null,
    eudCurrencyNameOne: text('currencyNameOne').trim() || null,
  });
  if (!saved.ok) {
    const m = words.points;
    // An address the core cannot take (not https, or another site's) says what one looks like.
    const refused = {
      ...eachProfile((network) =>
        format(m.profiles.refused, { network: networkName(network), example: exampleOf(network, m.profiles.handle) }),
      ),
      bonusLastDay: m.bonus.order,
    };
    return { ok: false, refusal: refusalInWords(saved.failure, words.refusals, language, labelsOf(m), (f) => FIELD_OF[f] ?? f, refused) };
  }
  await saveExcludedTags(pool(), session.shop, tags);
  // The rates, the bonus event, the names and the tags are what the storefront's points block says.
  await syncWidgetMetafields(session.shop, admin, api);
  return { ok: true, id: saved.data.id, draft: draftOf(saved.data, zone, tags) };
};

// A save answers with the setting as the core now has it.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

const urlOf = () => '/app/points';

/** The earning rates, each a number field. */
const RATES = ['perUnit', 'perOrder', 'onSignUp', 'onNewsletter', 'onBirthday', 'onFollow', 'onReferral', 'onReferredOrder'] as const;
/** How long points last, in whole months up to the core's bounds, each with its help. */
const KEEPING = [
  ['expiryMonths', 'expiry', 60],
  ['tierWindowMonths', 'tierWindow', 36],
] as const;

export default function PointsSettings() {
  const { id, draft: initial, currencyCode, imports, gifts, giftsLately, claimsPerDay, exclusions } = useLoaderData<typeof loader>();
  const { editors, tiers } = useMessages();
  const number = new Intl.NumberFormat(useAdminLanguage());
  const m = editors.points;
  const labels = labelsOf(m);
  const form = useEditorDraft(initial, id, urlOf);
  const { draft, errors } = form;
  return (
    <EditorFrame id="points-save-bar" title={m.title} backUrl="/app" helpTopic="points" form={form} onSave={() => form.save()}>
      <Layout.Section>
        <BlockStack gap="400">
          <TitledCard title={m.sections.program}>
            <FormLayout>
              <Checkbox label={labels.on} helpText={m.on.help} checked={draft.on} onChange={(v) => form.set('on', v)} error={errors.on} />
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.earning}>
            <FormLayout>
              {RATES.map((key) => (
                <TextField
                  key={key}
                  label={labels[key]}
                  helpText={format(m[key].help, { currency: currencyCode })}
                  type="number"
                  min={0}
                  step={key === 'perUnit' ? 0.01 : 1}
                  autoComplete="off"
                  {...form.field(key)}
                />
              ))}
              <Select
                label={labels.friendGift}
                helpText={format(m.friendGift.help, { limit: claimsPerDay })}
                options={[
                  { label: m.friendGift.none, value: '' },
                  ...gifts.map((r) => ({ label: r.name, value: r.id })),
                  ...(draft.friendGift && !gifts.some((r) => r.id === draft.friendGift)
                    ? [{ label: tiers.list.goneReward, value: draft.friendGift }]
                    : []),
                ]}
                {...form.field('friendGift')}
              />
              {giftsLately.claimed > 0 && (
                <Text as="p" tone="subdued">
                  {format(m.friendGift.lately[giftsLately.claimed === 1 ? 'one' : 'other'], {
                    days: number.format(GIFT_DAYS),
                    claimed: number.format(giftsLately.claimed),
                    used: number.format(giftsLately.used),
                  })}
                </Text>
              )}
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.bonus}>
            <FormLayout>
              <Select
                label={labels.bonus}
                helpText={format(m.bonus.help, { currency: currencyCode })}
                // One set through the API, not offered here, is shown as it is.
                options={[...BONUSES, ...(BONUSES.some((b) => b === draft.bonus) ? [] : [draft.bonus])].map((b) => ({
                  label: b === '1' ? m.bonus.none : format(m.bonus.times, { n: number.format(Number(b)) }),
                  value: b,
                }))}
                {...form.field('bonus')}
              />
              {draft.bonus !== '1' && (
                <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
                  <TextField label={labels.bonusFirstDay} type="date" autoComplete="off" {...form.field('bonusFirstDay')} />
                  <TextField label={labels.bonusLastDay} type="date" autoComplete="off" {...form.field('bonusLastDay')} />
                </InlineGrid>
              )}
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.profiles}>
            <Text as="p">{m.profiles.help}</Text>
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
              {SOCIAL_NETWORKS.map((network) => (
                <TextField
                  key={network}
                  label={labels[profileOf(network)]}
                  helpText={format(m.profiles.example, { example: exampleOf(network, m.profiles.handle) })}
                  type="url"
                  autoComplete="off"
                  maxLength={512}
                  {...form.field(profileOf(network))}
                />
              ))}
            </InlineGrid>
          </TitledCard>
          <TitledCard title={m.sections.keeping}>
            <FormLayout>
              {KEEPING.map(([key, words, max]) => (
                <TextField
                  key={key}
                  label={labels[key]}
                  helpText={m[words].help}
                  type="number"
                  min={0}
                  max={max}
                  step={1}
                  autoComplete="off"
                  {...form.field(key)}
                />
              ))}
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.shopper}>
            <TextField
              label={labels.currencyName}
              helpText={m.currency.help}
              autoComplete="off"
              maxLength={48}
              {...form.field('currencyName')}
            />
            <TextField
              label={labels.currencyNameOne}
              helpText={m.currencyOne.help}
              autoComplete="off"
              maxLength={48}
              {...form.field('currencyNameOne')}
            />
          </TitledCard>
          <TitledCard title={m.sections.excluded}>
            <BlockStack gap="200">
              <TextField label={labels.excludedTags} helpText={m.excluded.help} autoComplete="off" {...form.field('excludedTags')} />
              {/* As loaded: once the tags are edited or saved, what it said no longer holds until the page is opened again. */}
              {draft.excludedTags === initial.excludedTags && <LeftOutNow exclusions={exclusions} tags={initial.excludedTags} />}
            </BlockStack>
          </TitledCard>
          <TitledCard title={tiers.onPointsPage.title}>
            <Text as="p">{tiers.onPointsPage.body}</Text>
            <Link to="/app/tiers">{tiers.onPointsPage.action}</Link>
          </TitledCard>
          <PointsImport imports={imports} />
        </BlockStack>
      </Layout.Section>
    </EditorFrame>
  );
}

/** Under the tags: how many customers they leave out now, or that the app is still checking the shop's customers for them. */
function LeftOutNow({ exclusions, tags }: { exclusions: { leftOut: number; sweeping: boolean }; tags: string }) {
  const m = useMessages().editors.points.excluded;
  const language = useAdminLanguage();
  const { leftOut, sweeping } = exclusions;
  if (!tags && !sweeping && !leftOut) return null;
  const text = sweeping
    ? m.sweeping
    : leftOut
      ? format(m.leftOut[leftOut === 1 ? 'one' : 'other'], { count: leftOut.toLocaleString(language) })
      : m.noneLeftOut;
  return (
    <InlineStack gap="200" blockAlign="baseline">
      <Text as="p" tone="subdued">
        <span data-left-out>{text}</span>
      </Text>
      {!sweeping && leftOut > 0 && (
        <Link to="/app/members?status=paused" data-see-paused>
          {m.seePaused}
        </Link>
      )}
    </InlineStack>
  );
}
