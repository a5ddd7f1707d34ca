import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { type ShouldRevalidateFunction, useLoaderData } from '@remix-run/react';
import { BlockStack, FormLayout, Layout, Select, Text, TextField } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import { syncWidgetMetafields } from '../admin/widget-metafields.server';
import { numberOr } from '../admin/numbers';
import { pointsName, type TierDraft, tierLabels, tierRefusal, tierWords, tooManyDecimals } from '../admin/tier-words';
import { membersPerTier, pointsContext, rewardNames } from '../admin/tiers.server';
import { EditorFrame } from '../components/EditorFrame';
import { NameField, StatusSelect } from '../components/RecordFields';
import { TitledCard } from '../components/TitledCard';
import { type EditorAnswer, useEditorDraft } from '../components/useEditorDraft';
import { createRecord, records, removeRecord, type RecordOf, updateRecord, whereEquals } from '../core/records.server';
import { claimedLanguage, format } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { isRecordId } from '../core/ids';
import { failureResponse } from '../core/failure';

/**
 * A VIP tier in the merchant's words (CONTRACT §19 `tier`; `new` for a new one): its name, the points
 * that reach it, the multiplier of what its members earn, the reward on reaching it (picked by name)
 * and what shoppers read. The name is also the name shoppers see (`eudTitle`, in the shop's default
 * language), as in the loyalty apps merchants know, where a tier has one name.
 */

type Tier = RecordOf<'tier'>;
type Status = NonNullable<Tier['status']>;

const draftOf = (tier: Tier | null): TierDraft => ({
  name: tier?.name ?? '',
  status: tier?.status ?? 'live',
  threshold: tier ? String(tier.pointsThreshold) : '',
  multiplier: String(tier?.earnMultiplier ?? 1),
  entryReward: tier?.entryRewardId ?? '',
  description: tier?.eudDescription ?? '',
});

function tierIdOf(params: LoaderFunctionArgs['params']): string | null {
  if (!params.id || params.id === 'new') return null;
  if (!isRecordId(params.id)) throw new Response('There is no such tier.', { status: 404 });
  return params.id;
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const id = tierIdOf(params);
  const { api } = await authenticateShop(request);
  const [tier, points, rewards, members] = await Promise.all([
    id ? records(api, 'tier').get(id) : null,
    pointsContext(api),
    rewardNames(api),
    id ? membersPerTier(api, [id]) : null,
  ]);
  if (tier && !tier.ok)
    throw tier.failure.status === 404 ? new Response('There is no such tier.', { status: 404 }) : failureResponse(tier.failure);
  // Said in the delete's confirmation: the members it leaves without a tier.
  const memberCount = (id && members?.get(id)) || 0;
  return { id, draft: draftOf(tier?.ok ? tier.data : null), currencyName: points.currencyName, rewards, memberCount };
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<EditorAnswer<TierDraft> | Response> => {
  const id = tierIdOf(params);
  const { api, admin, session } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const messages = ADMIN_MESSAGES[claimedLanguage(input.language, request)];
  if (input.intent === 'delete' && id) {
    const removed = await removeRecord(api, 'tier', id);
    if (!removed.ok && removed.failure.status !== 404) throw failureResponse(removed.failure);
    // The storefront's points block no longer promises its multiplier.
    await syncWidgetMetafields(session.shop, admin, api);
    return redirect('/app/tiers');
  }
  const d = objectOf(input.draft);
  if (input.intent !== 'save' || typeof d.name !== 'string')
    throw new Response('The body must be {"intent": "save", "draft": {…}}.', { status: 400 });
  const text = (key: string) => (typeof d[key] === 'string' ? d[key] : '');
  const name = text('name').trim();
  const body = {
    name,
    status: text('status') as Status,
    pointsThreshold: numberOr(text('threshold')) as number,
    earnMultiplier: numberOr(text('multiplier')) as number,
    entryRewardId: text('entryReward') || null,
    eudTitle: name || null,
    eudDescription: text('description').trim() || null,
  };
  // Two live tiers from one number would leave which of them a member is in to the order they were made.
  if (body.status === 'live' && Number.isFinite(body.pointsThreshold)) {
    const live = await records(api, 'tier').list({ filters: whereEquals('status', 'live'), limit: 1000 });
    const twin = live.ok ? live.data.find((t) => t.id !== id && t.pointsThreshold === body.pointsThreshold) : undefined;
    if (twin) {
      const taken = format(messages.tiers.editor.threshold.taken, { tier: twin.name ?? '' });
      return { ok: false, refusal: { message: taken, fieldErrors: { threshold: taken } } };
    }
  }
  const saved = id ? await updateRecord(api, 'tier', id, body) : await createRecord(api, 'tier', body);
  if (!saved.ok) {
    const points = pointsName(messages.tiers, (await pointsContext(api)).currencyName);
    return { ok: false, refusal: tierRefusal(saved.failure, messages, points) };
  }
  // Its name and multiplier are what the storefront's points block promises a customer in it.
  await syncWidgetMetafields(session.shop, admin, api);
  return { ok: true, id: saved.data.id, draft: draftOf(saved.data) };
};

// A save answers with the tier as the core now has it.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

const urlOf = (id: string) => `/app/tiers/${id}`;

export default function TierPage() {
  const data = useLoaderData<typeof loader>();
  return <TierEditor key={data.id ?? 'new'} {...data} />;
}

function TierEditor({ id, draft: initial, currencyName, rewards, memberCount }: ReturnType<typeof useLoaderData<typeof loader>>) {
  const messages = useMessages();
  const m = messages.tiers.editor;
  const language = useAdminLanguage();
  const form = useEditorDraft(initial, id, urlOf);
  const { draft } = form;
  const points = pointsName(messages.tiers, currencyName);
  const labels = tierLabels(messages, points);
  const words = tierWords(messages.tiers, language, points, draft);
  const deleteConsequences = memberCount
    ? [format(m.deleteMembers[memberCount === 1 ? 'one' : 'other'], { count: new Intl.NumberFormat(language).format(memberCount) })]
    : [];
  const save = () => {
    const found: Record<string, string> = {};
    const required = messages.editors.refusals.required;
    if (!draft.name.trim()) found.name = format(required, { label: labels.name });
    if (!draft.threshold.trim()) found.threshold = format(required, { label: labels.threshold });
    if (tooManyDecimals(draft.multiplier)) found.multiplier = format(m.multiplier.oneDecimal, { label: labels.multiplier });
    if (form.check(found)) form.save();
  };
  return (
    <EditorFrame
      id="tier-save-bar"
      title={draft.name || initial.name || m.newTitle}
      backUrl="/app/tiers"
      record={{ slug: 'tier', id, name: initial.name, status: initial.status }}
      deleteConsequences={deleteConsequences}
      helpTopic="points"
      form={form}
      onSave={save}
    >
      <Layout.Section>
        <BlockStack gap="400">
          <TitledCard title={m.sections.tier}>
            <FormLayout>
              <NameField label={labels.name} helpText={m.name.help} {...form.field('name')} maxLength={48} />
              <TextField
                label={labels.threshold}
                helpText={format(m.threshold.help, { points })}
                type="number"
                min={0}
                step={1}
                autoComplete="off"
                {...form.field('threshold')}
              />
              <StatusSelect label={labels.status} helpText={m.status.help} {...form.field('status')} />
            </FormLayout>
          </TitledCard>
          <TitledCard title={m.sections.perks}>
            <FormLayout>
              <TextField
                label={labels.multiplier}
                helpText={format(m.multiplier.help, { points })}
                type="number"
                min={1}
                max={10}
                step={0.1}
                autoComplete="off"
                {...form.field('multiplier')}
              />
              <Select
                label={labels.entryReward}
                helpText={m.entryReward.help}
                options={[
                  { label: m.entryReward.none, value: '' },
                  ...rewards.map((r) => ({ label: r.name, value: r.id })),
                  ...(draft.entryReward && !rewards.some((r) => r.id === draft.entryReward)
                    ? [{ label: messages.tiers.list.goneReward, value: draft.entryReward }]
                    : []),
                ]}
                {...form.field('entryReward')}
              />
            </FormLayout>
            <Text as="p" tone="subdued">
              {words.from} · {words.earns}
            </Text>
          </TitledCard>
          <TitledCard title={m.sections.shopper}>
            <TextField
              label={labels.description}
              helpText={m.description.help}
              autoComplete="off"
              multiline={2}
              {...form.field('description')}
            />
          </TitledCard>
        </BlockStack>
      </Layout.Section>
    </EditorFrame>
  );
}
