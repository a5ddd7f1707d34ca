import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { type ShouldRevalidateFunction, useFetcher, useLoaderData, useNavigate, useSubmit } from '@remix-run/react';
import { SaveBar, useAppBridge } from '@shopify/app-bridge-react';
import {
  Banner,
  BlockStack,
  Button,
  Card,
  Checkbox,
  ChoiceList,
  InlineError,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  Text,
  TextField,
} from '@shopify/polaris';
import { useEffect, useMemo, useState } from 'react';
import { authenticateShop } from '../admin/authenticate.server';
import type { CoreDetail } from '../admin/field-words';
import { couponCounts } from '../admin/record-pages.server';
import { rewardUses } from '../admin/tiers.server';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { CouponImport } from '../components/CouponImport';
import { CustomerLink } from '../components/CustomerLink';
import { HelpFooter } from '../components/HelpFooter';
import { RowsTable } from '../components/RowsTable';
import { LastDayField } from '../components/RecordFields';
import { TitledCard } from '../components/TitledCard';
import { records, removeRecord } from '../core/records.server';
import { claimedLanguage, format } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { outbox } from '../loop/outbox.server';
import { CODE_MAKERS, REWARD_KINDS, takesNoAmount } from '../shopify/reward-issuing';
import {
  blankReward,
  checkDraft,
  coreBody,
  dayText,
  type DraftField,
  draftOf,
  EXPIRIES,
  issuedByApp,
  MINIMUMS,
  onlyByApp,
  refusalsOnFields,
  type RewardDraft,
  specOf,
  todayIn,
} from '../admin/reward-draft';
import { fetchCustomer, fetchShop, shopCollections, shopCurrency } from '../shopify/admin-api.server';
import { shopifyCustomerId } from '../shopify/customer-ids.server';
import { isRecordId } from '../core/ids';
import { failureMessage, failureResponse, isOutage } from '../core/failure';

/**
 * A reward in the merchant's words (`new` for a new one): what the customer gets (percentage,
 * fixed amount, free shipping, a free product, store credit), how its codes are made (a Shopify discount, uploaded
 * codes, generated codes), minimum purchase, collections, combinations and expiry; saved with the
 * save bar, the core's refusals on their fields. The core keeps the reward; the app keeps what the
 * core has no field for (reward_issuing) and issues Shopify discounts and store credit itself.
 */

function rewardIdOf(params: LoaderFunctionArgs['params']): string | null {
  if (!params.id || params.id === 'new') return null;
  if (!isRecordId(params.id)) throw new Response('There is no such reward.', { status: 404 });
  return params.id;
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const id = rewardIdOf(params);
  const { api, admin, session } = await authenticateShop(request);
  const [currencyCode, collections] = await Promise.all([
    shopCurrency(admin),
    // Without read_products (or when Shopify does not answer) the choice of collections is not offered.
    shopCollections(admin).catch(() => null),
  ]);
  if (!id) return { draft: blankReward(), currencyCode, collections, coupons: null, failures: [], uses: null };
  const found = await records(api, 'reward').get(id);
  if (!found.ok)
    throw found.failure.status === 404 ? new Response('There is no such reward.', { status: 404 }) : failureResponse(found.failure);
  const [issued, specs, failed, shop, uses] = await Promise.all([
    outbox.shopifyDiscountRewards(session.shop),
    outbox.issuingSpecs(session.shop),
    outbox.failedDiscounts(session.shop, id),
    // A last day is the shop's day.
    fetchShop(admin),
    // Said in the delete's confirmation: what gives the reward now.
    rewardUses(api, id),
  ]);
  const draft = draftOf(found.data, issued.has(id), specs.get(id) ?? null, shop.ianaTimezone);
  const failures = await Promise.all(
    failed.map(async (f) => {
      const customer = await fetchCustomer(admin, f.customerGid).catch(() => null);
      const name = [customer?.firstName, customer?.lastName].filter(Boolean).join(' ') || customer?.email || null;
      // Shopify's words without the input path it names (`basicCodeDiscount.customerGets: …`), an API name to the merchant.
      const reason = f.reason
        .split('; ')
        .map((r) => r.replace(/^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*: /, ''))
        .join('; ');
      return { rewardLogId: f.rewardLogId, customerId: shopifyCustomerId(f.customerGid), name, reason, attempts: f.attempts };
    }),
  );
  const coupons = draft.codes === 'upload' && !issuedByApp(draft) ? await couponCounts(api, id) : null;
  return { draft, currencyCode, collections, coupons, failures, uses };
};

type SaveAnswer =
  { ok: true; draft: RewardDraft; notice: string } | { ok: false; errors: Partial<Record<DraftField, string>>; form: string[] };

const isDraft = (value: unknown): value is RewardDraft => {
  const d = objectOf(value);
  const blank = blankReward();
  return (Object.keys(blank) as (keyof RewardDraft)[]).every((k) =>
    k === 'id' ? d.id === null || typeof d.id === 'string' : k === 'collections' ? Array.isArray(d[k]) : typeof d[k] === typeof blank[k],
  );
};

/** Asks `{intent: 'save', draft}`, `{intent: 'delete'}` or `{intent: 'retry', rewardLogId}`, with the language the page shows. */
export const action = async ({ request, params }: ActionFunctionArgs): Promise<SaveAnswer | Response> => {
  const id = rewardIdOf(params);
  const { api, admin, session } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const messages = ADMIN_MESSAGES[claimedLanguage(input.language, request)];
  const m = messages.rewards.editor;
  if (input.intent === 'delete') {
    if (!id) throw new Response('There is no such reward.', { status: 404 });
    const removed = await removeRecord(api, 'reward', id);
    if (!removed.ok && removed.failure.status !== 404)
      return { ok: false, errors: {}, form: [failureMessage(removed.failure, messages.editors.refusals.outage)] };
    await Promise.all([outbox.setShopifyDiscount(session.shop, id, false), outbox.setIssuingSpec(session.shop, id, null)]);
    return redirect('/app/r/reward');
  }
  if (input.intent === 'retry') {
    const retried =
      typeof input.rewardLogId === 'string' &&
      isRecordId(input.rewardLogId) &&
      (await outbox.retryDiscount(session.shop, input.rewardLogId));
    return Response.json({ notice: retried ? m.retrying : m.notFailed });
  }
  if (input.intent !== 'save' || !isDraft(input.draft))
    throw new Response('The body must be {"intent": "save", "draft": <the editor\'s reward>} or a delete or retry.', { status: 400 });
  const draft: RewardDraft = {
    ...input.draft,
    id,
    kind: REWARD_KINDS.includes(input.draft.kind) ? input.draft.kind : 'percentage',
    codes: CODE_MAKERS.includes(input.draft.codes) ? input.draft.codes : 'shopify',
    minimum: MINIMUMS.includes(input.draft.minimum) ? input.draft.minimum : 'none',
    expiry: EXPIRIES.includes(input.draft.expiry) ? input.draft.expiry : 'never',
    collections: input.draft.collections.filter((c): c is string => typeof c === 'string'),
  };
  // A last day is the shop's day: it ends at midnight where the shop is.
  const { ianaTimezone: timezone } = await fetchShop(admin);
  const local = checkDraft(draft, m.checks, todayIn(timezone));
  if (Object.keys(local).length) return { ok: false, errors: local, form: [] };
  const body = coreBody(draft, m, timezone);
  const saved = id
    ? await api.PATCH('/schema/reward/record/{id}', { params: { path: { id } }, body: body as never })
    : await api.POST('/schema/reward/record', { body: body as never });
  if (!saved.data) {
    if (isOutage(saved.response.status)) return { ok: false, errors: {}, form: [messages.editors.refusals.outage] };
    const details: CoreDetail[] = saved.error?.error?.details ?? [];
    const refused = refusalsOnFields(details.length ? details : [{ code: null }], m.checks, messages.language);
    return { ok: false, errors: refused.fields, form: refused.form };
  }
  const rewardId = saved.data.data.id;
  const [currencyCode, collections] = await Promise.all([shopCurrency(admin), shopCollections(admin).catch(() => [])]);
  const spec = specOf(draft, currencyCode, collections);
  await outbox.setIssuingSpec(session.shop, rewardId, spec);
  await outbox.setShopifyDiscount(session.shop, rewardId, spec !== null);
  const [issued, specs] = await Promise.all([outbox.shopifyDiscountRewards(session.shop), outbox.issuingSpecs(session.shop)]);
  return {
    ok: true,
    draft: draftOf(saved.data.data, issued.has(rewardId), specs.get(rewardId) ?? null, timezone),
    notice: id ? m.saved : m.created,
  };
};

// A save answers with the reward as the core now has it; reading it again would repeat those calls.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, actionResult, defaultShouldRevalidate }) =>
  formMethod === 'POST' && objectOf(actionResult).ok !== undefined ? false : defaultShouldRevalidate;

const SAVE_BAR_ID = 'reward-save-bar';

export default function RewardPage() {
  const data = useLoaderData<typeof loader>();
  return <RewardEditor key={data.draft.id ?? 'new'} {...data} />;
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function RewardEditor({ draft: initial, currencyCode, collections, coupons, failures, uses }: Data) {
  const messages = useMessages();
  const m = messages.rewards.editor;
  const language = useAdminLanguage();
  const shopify = useAppBridge();
  const navigate = useNavigate();
  const submit = useSubmit();
  const fetcher = useFetcher<SaveAnswer>();
  const retry = useFetcher<{ notice: string }>();
  const [draft, setDraft] = useState(initial);
  const [baseline, setBaseline] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<DraftField, string>>>({});
  const [form, setForm] = useState<string[]>([]);
  const [deleting, setDeleting] = useState(false);
  const [createdId, setCreatedId] = useState<string | null>(null);
  const saving = fetcher.state !== 'idle';
  const dirty = JSON.stringify(draft) !== JSON.stringify(baseline);
  const money = useMemo(() => new Intl.NumberFormat(language, { style: 'currency', currency: currencyCode }), [language, currencyCode]);
  const number = useMemo(() => new Intl.NumberFormat(language), [language]);
  // What else a delete takes away: the tiers, milestones and missions that give the reward, its place among the rewards to redeem, the rewards on hold, and referred friends' gift.
  const said = m.deleteUses;
  const deleteConsequences = [
    ...(uses?.tiers.length
      ? [format(said.tiers[uses.tiers.length === 1 ? 'one' : 'other'], { tiers: new Intl.ListFormat(language).format(uses.tiers) })]
      : []),
    ...(uses?.others ? [format(said.others[uses.others === 1 ? 'one' : 'other'], { count: number.format(uses.others) })] : []),
    ...(baseline.id && baseline.pointsCost.trim() ? [format(said.redeemable, { cost: number.format(Number(baseline.pointsCost)) })] : []),
    ...(uses?.held ? [format(said.held[uses.held === 1 ? 'one' : 'other'], { count: number.format(uses.held) })] : []),
    ...(uses?.friendGift ? [said.friendGift] : []),
  ];
  // A toast, not a line in the list: a retry that succeeds at once empties the list as the page reloads.
  useEffect(() => {
    if (retry.data) shopify.toast.show(retry.data.notice);
  }, [retry.data, shopify]);
  const currencyName = useMemo(
    () => new Intl.DisplayNames([language], { type: 'currency' }).of(currencyCode) ?? currencyCode,
    [language, currencyCode],
  );

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== 'idle') return;
    if (!answer.ok) {
      setErrors(answer.errors);
      setForm(answer.form.length ? answer.form : [m.refused]);
      return;
    }
    setErrors({});
    setForm([]);
    setBaseline(answer.draft);
    setDraft(answer.draft);
    shopify.toast.show(answer.notice);
    if (!initial.id && answer.draft.id) setCreatedId(answer.draft.id);
  }, [fetcher.data, fetcher.state, initial.id, m, shopify]);

  // The banner that points at marked fields goes once the merchant has changed every one of them.
  useEffect(() => {
    if (form.length && form.every((f) => f === m.checksFailed || f === m.refused) && !Object.values(errors).some(Boolean)) setForm([]);
  }, [errors, form, m]);

  // A new reward, once saved, moves to its own address after the save bar has gone.
  useEffect(() => {
    if (createdId && !dirty) navigate(`/app/rewards/${createdId}`, { replace: true });
  }, [createdId, dirty, navigate]);

  const set =
    <K extends DraftField>(key: K) =>
    (value: RewardDraft[K]) => {
      setDraft((d) => ({ ...d, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    };
  const save = () => {
    // The browser's today: the shop's, give or take a day, and the action checks again in the shop's zone.
    const found = checkDraft(draft, m.checks, todayIn(null));
    setErrors(found);
    setForm(Object.keys(found).length ? [m.checksFailed] : []);
    if (Object.keys(found).length) return;
    fetcher.submit({ intent: 'save', draft, language }, { method: 'post', encType: 'application/json' });
  };
  const discard = () => {
    setDraft(baseline);
    setErrors({});
    setForm([]);
  };

  const discount = draft.kind !== 'store_credit';
  const byShopify = issuedByApp(draft);
  const amountOff = draft.kind === 'percentage' || draft.kind === 'fixed_amount';
  const valueText =
    draft.kind === 'free_product'
      ? draft.variantTitle
      : draft.kind === 'percentage'
        ? draft.value
        : Number.isFinite(Number(draft.value)) && draft.value
          ? money.format(Number(draft.value))
          : '';
  const summary = [
    format(m.summaryValue[draft.kind], { value: valueText || '…' }),
    ...(byShopify && discount && draft.minimum !== 'none' && draft.minimumValue
      ? [
          format(m.summaryMinimum[draft.minimum], {
            value: draft.minimum === 'subtotal' ? money.format(Number(draft.minimumValue) || 0) : draft.minimumValue,
          }),
        ]
      : []),
    ...(byShopify && amountOff && draft.collections.length
      ? [
          format(m.summaryCollections, {
            titles: new Intl.ListFormat(language, { type: 'conjunction' }).format(
              (collections ?? []).filter((c) => draft.collections.includes(c.id)).map((c) => c.title),
            ),
          }),
        ]
      : []),
    format(m.summaryExpiry[draft.expiry], {
      days: draft.expiryDays || '…',
      date: dayText(draft.expiryDate, language) ?? '…',
    }),
    ...(draft.pointsCost.trim()
      ? [format(m.summaryCost, { points: Number.isFinite(Number(draft.pointsCost)) ? number.format(Number(draft.pointsCost)) : '…' })]
      : []),
  ].join(' · ');
  const example = `${draft.prefix}${'X'.repeat(Math.min(Math.max(Number(draft.length) || 10, 6), 32))}`;

  return (
    <Page
      title={baseline.name || m.newTitle}
      backAction={{ content: m.back, url: '/app/r/reward' }}
      primaryAction={{ content: m.save, onAction: save, loading: saving, disabled: !dirty && !!draft.id }}
      secondaryActions={draft.id ? [{ content: messages.common.delete, destructive: true, onAction: () => setDeleting(true) }] : []}
      actionGroups={
        draft.id
          ? [
              {
                title: messages.editors.frame.advanced,
                actions: [{ content: messages.editors.frame.allFields, url: `/app/r/reward/${draft.id}` }],
              },
            ]
          : []
      }
    >
      <SaveBar id={SAVE_BAR_ID} open={dirty} discardConfirmation>
        <button {...{ variant: 'primary' }} onClick={save} disabled={saving}>
          {m.save}
        </button>
        <button onClick={discard} disabled={saving}>
          {m.discard}
        </button>
      </SaveBar>
      <ConfirmDelete
        name={deleting ? baseline.name : null}
        consequences={deleteConsequences}
        onConfirm={() => submit({ intent: 'delete', language }, { method: 'post', encType: 'application/json' })}
        onClose={() => setDeleting(false)}
      />
      <Layout>
        {form.length ? (
          <Layout.Section>
            <Banner tone="critical" title={form[0]}>
              {form.length > 1 ? form.slice(1).map((f) => <p key={f}>{f}</p>) : undefined}
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <TitledCard title={m.basics}>
              <TextField
                label={m.name}
                helpText={m.nameHelp}
                value={draft.name}
                onChange={set('name')}
                error={errors.name}
                autoComplete="off"
              />
              <TextField
                label={m.description}
                value={draft.description}
                onChange={set('description')}
                error={errors.description}
                autoComplete="off"
              />
              <TextField
                label={m.title}
                helpText={m.titleHelp}
                placeholder={
                  draft.kind === 'free_shipping'
                    ? m.titleFreeShipping
                    : draft.kind === 'free_product' && draft.variantTitle
                      ? format(m.titleFreeProduct, { product: draft.variantTitle })
                      : undefined
                }
                value={draft.title}
                onChange={set('title')}
                error={errors.title}
                autoComplete="off"
              />
              <TextField
                label={m.instructions}
                helpText={m.instructionsHelp}
                value={draft.instructions}
                onChange={set('instructions')}
                error={errors.instructions}
                multiline={2}
                autoComplete="off"
              />
            </TitledCard>
            <Card>
              <BlockStack gap="300">
                <ChoiceList
                  title={m.gets}
                  choices={REWARD_KINDS.map((k) => ({
                    label: m.kinds[k],
                    value: k,
                    helpText: format(m.kindHelp[k], { currency: currencyName }),
                  }))}
                  selected={[draft.kind]}
                  onChange={([k]) => set('kind')((k as RewardDraft['kind']) ?? 'percentage')}
                  error={errors.kind}
                />
                {draft.kind === 'free_product' ? (
                  <ProductChoice
                    variant={draft.variantId ? { id: draft.variantId, title: draft.variantTitle } : null}
                    error={errors.variantId}
                    onChange={(variant) => {
                      setDraft((d) => ({ ...d, variantId: variant.id, variantTitle: variant.title }));
                      setErrors((e) => ({ ...e, variantId: undefined }));
                    }}
                  />
                ) : null}
                {!takesNoAmount(draft.kind) ? (
                  <TextField
                    label={draft.kind === 'percentage' ? m.percentage : m.amount}
                    type="number"
                    value={draft.value}
                    onChange={set('value')}
                    error={errors.value}
                    suffix={draft.kind === 'percentage' ? '%' : currencyCode}
                    autoComplete="off"
                  />
                ) : null}
              </BlockStack>
            </Card>
            {discount ? (
              <Card>
                <BlockStack gap="300">
                  <ChoiceList
                    title={m.codes}
                    choices={CODE_MAKERS.map((c) => ({
                      label: m.codeMakers[c],
                      value: c,
                      helpText: m.codeHelp[c],
                      disabled: c !== 'shopify' && onlyByApp(draft.kind),
                    }))}
                    selected={[onlyByApp(draft.kind) ? 'shopify' : draft.codes]}
                    onChange={([c]) => set('codes')((c as RewardDraft['codes']) ?? 'shopify')}
                    error={errors.codes}
                  />
                  {onlyByApp(draft.kind) ? (
                    <Text as="p" tone="subdued">
                      {m.shopifyOnly}
                    </Text>
                  ) : null}
                  {!byShopify && draft.codes === 'generate' ? (
                    <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
                      <TextField
                        label={m.prefix}
                        helpText={m.prefixHelp}
                        value={draft.prefix}
                        onChange={set('prefix')}
                        error={errors.prefix}
                        autoComplete="off"
                      />
                      <TextField
                        label={m.length}
                        helpText={`${m.lengthHelp} ${format(m.example, { code: example })}`}
                        type="number"
                        value={draft.length}
                        onChange={set('length')}
                        error={errors.length}
                        autoComplete="off"
                      />
                    </InlineGrid>
                  ) : null}
                </BlockStack>
              </Card>
            ) : null}
            {byShopify && discount ? (
              <Card>
                <BlockStack gap="300">
                  <ChoiceList
                    title={m.minimum}
                    choices={MINIMUMS.map((k) => ({ label: format(m.minimums[k], { currency: currencyName }), value: k }))}
                    selected={[draft.minimum]}
                    onChange={([k]) => set('minimum')((k as RewardDraft['minimum']) ?? 'none')}
                  />
                  {draft.minimum !== 'none' ? (
                    <TextField
                      label={draft.minimum === 'subtotal' ? m.minimumAmount : m.minimumQuantity}
                      type="number"
                      value={draft.minimumValue}
                      onChange={set('minimumValue')}
                      error={errors.minimumValue}
                      suffix={draft.minimum === 'subtotal' ? currencyCode : undefined}
                      autoComplete="off"
                    />
                  ) : null}
                  {amountOff ? <Collections collections={collections} selected={draft.collections} onChange={set('collections')} /> : null}
                  <BlockStack gap="100">
                    <Text as="h3" variant="headingSm">
                      {m.combines}
                    </Text>
                    <Text as="p" tone="subdued">
                      {m.combinesHelp}
                    </Text>
                    <Checkbox label={m.combinesOrder} checked={draft.combinesOrder} onChange={set('combinesOrder')} />
                    <Checkbox label={m.combinesProduct} checked={draft.combinesProduct} onChange={set('combinesProduct')} />
                    <Checkbox label={m.combinesShipping} checked={draft.combinesShipping} onChange={set('combinesShipping')} />
                  </BlockStack>
                </BlockStack>
              </Card>
            ) : null}
            <Card>
              <BlockStack gap="300">
                <ChoiceList
                  title={m.expiry}
                  choices={EXPIRIES.map((k) => ({ label: m.expiries[k], value: k }))}
                  selected={[draft.expiry]}
                  onChange={([k]) => set('expiry')((k as RewardDraft['expiry']) ?? 'never')}
                  error={errors.expiry}
                />
                {draft.expiry === 'days' ? (
                  <TextField
                    label={m.days}
                    type="number"
                    value={draft.expiryDays}
                    onChange={set('expiryDays')}
                    error={errors.expiryDays}
                    autoComplete="off"
                  />
                ) : null}
                {draft.expiry === 'date' ? (
                  <LastDayField value={draft.expiryDate} onChange={set('expiryDate')} error={errors.expiryDate} />
                ) : null}
              </BlockStack>
            </Card>
            <TitledCard title={m.redeem}>
              <TextField
                label={m.pointsCost}
                type="number"
                min={1}
                value={draft.pointsCost}
                onChange={set('pointsCost')}
                error={errors.pointsCost}
                helpText={m.pointsCostHelp}
                autoComplete="off"
              />
            </TitledCard>
            {draft.id && coupons && draft.codes === 'upload' && !byShopify ? (
              <CouponImport rewardId={draft.id} available={coupons.available} issued={coupons.issued} />
            ) : null}
            {failures.length ? (
              <TitledCard title={m.failures} region>
                <Text as="p" tone="subdued">
                  {m.failuresHelp}
                </Text>
                <RowsTable
                  name={{ singular: m.columns.customer, plural: m.failures }}
                  headings={[m.columns.customer, m.columns.reason, m.columns.attempts, messages.common.actions]}
                  action
                  numeric={[2]}
                  rows={failures.map((f) => ({
                    id: f.rewardLogId,
                    cells: [
                      <CustomerLink customerId={f.customerId} externalId="" label={f.name ?? m.customer} />,
                      f.reason,
                      String(f.attempts),
                      <Button
                        disabled={retry.state !== 'idle'}
                        onClick={() =>
                          retry.submit(
                            { intent: 'retry', rewardLogId: f.rewardLogId, language },
                            { method: 'post', encType: 'application/json' },
                          )
                        }
                      >
                        {m.retry}
                      </Button>,
                    ],
                  }))}
                />
              </TitledCard>
            ) : null}
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {m.summary}
              </Text>
              <div data-testid="reward-summary">
                <Text as="p">{summary}</Text>
              </div>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
      <HelpFooter topic="rewards" />
    </Page>
  );
}

/** The name a picked variant goes by: its product's title, with the variant's own unless it is the only one. */
function variantName(v: { title?: string; displayName?: string; product?: { title?: string } }): string {
  const product = v.product?.title;
  if (!product) return (v.displayName ?? v.title ?? '').replace(/ - Default Title$/, '');
  return v.title && v.title !== 'Default Title' ? `${product} – ${v.title}` : product;
}

/** A free product's product, picked with Shopify's own resource picker (one variant: one price to take off). */
function ProductChoice({
  variant,
  error,
  onChange,
}: {
  variant: { id: string; title: string } | null;
  error: string | undefined;
  onChange(variant: { id: string; title: string }): void;
}) {
  const m = useMessages().rewards.editor;
  const shopify = useAppBridge();
  const pick = async () => {
    const picked = await shopify.resourcePicker({
      type: 'variant',
      action: 'select',
      multiple: false,
      selectionIds: variant ? [{ id: variant.id }] : [],
    });
    const chosen = picked?.[0];
    if (chosen) onChange({ id: chosen.id, title: variantName(chosen) });
  };
  return (
    <BlockStack gap="100">
      <Text as="h3" variant="headingSm">
        {m.product}
      </Text>
      <InlineStack gap="300" blockAlign="center">
        <Text as="p" tone={variant ? undefined : 'subdued'}>
          {variant?.title || m.noProduct}
        </Text>
        <Button onClick={pick}>{variant ? m.changeProduct : m.chooseProduct}</Button>
      </InlineStack>
      {error ? <InlineError message={error} fieldID="reward-product" /> : null}
      <Text as="p" tone="subdued">
        {m.productHelp}
      </Text>
    </BlockStack>
  );
}

/** All products, or chosen collections picked by title. */
function Collections({
  collections,
  selected,
  onChange,
}: {
  collections: { id: string; title: string }[] | null;
  selected: string[];
  onChange(ids: string[]): void;
}) {
  const m = useMessages().rewards.editor;
  const [some, setSome] = useState(selected.length > 0);
  if (!collections)
    return (
      <Text as="p" tone="subdued">
        {m.collectionsUnavailable}
      </Text>
    );
  return (
    <BlockStack gap="200">
      <ChoiceList
        title={m.appliesTo}
        choices={[
          { label: m.allProducts, value: 'all' },
          { label: m.someCollections, value: 'some', disabled: collections.length === 0 },
        ]}
        selected={[some ? 'some' : 'all']}
        onChange={([v]) => {
          setSome(v === 'some');
          if (v !== 'some') onChange([]);
        }}
      />
      {collections.length === 0 ? (
        <Text as="p" tone="subdued">
          {m.noCollections}
        </Text>
      ) : null}
      {some ? (
        <ChoiceList
          title={m.collections}
          allowMultiple
          choices={collections.map((c) => ({ label: c.title, value: c.id }))}
          selected={selected}
          onChange={onChange}
        />
      ) : null}
    </BlockStack>
  );
}
