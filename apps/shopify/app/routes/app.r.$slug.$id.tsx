import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react';
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Layout, Page, Text } from '@shopify/polaris';
import { useState } from 'react';
import { ConfirmDelete } from '../components/ConfirmDelete';
import { Standings } from '../components/Standings';
import { CouponImport } from '../components/CouponImport';
import { RecordForm } from '../components/RecordForm';
import { authenticateShop } from '../admin/authenticate.server';
import { inFormWords, localize, toBody } from '../admin/form-fields';
import { choicesFor, couponCounts, formFields, milestoneFormFields } from '../admin/record-pages.server';
import { DEFINITION_SLUGS, editorUrl, helpTopicOf, resource } from '../admin/resources';
import { HelpFooter } from '../components/HelpFooter';
import { LocalDate } from '../components/LocalDate';
import { RowsTable } from '../components/RowsTable';
import { readStandings } from '../admin/standings.server';
import { syncWidgetMetafields } from '../admin/widget-metafields.server';
import { config } from '../config.server';
import { type CoreFailure, coreFailure, failureMessage, failureResponse } from '../core/failure';
import { createFromValues, records, removeRecord, updateFromValues, whereEquals } from '../core/records.server';
import { adminLanguage, claimedLanguage, format, textFor } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { onStorefront } from '../shopify/widget-metafields.server';
import { shops } from '../storage/stores.server';

/**
 * One record of any resource: its form (create when the id is "new"), and what belongs to it —
 * a definition's milestones, a reward's coupon pool, a webhook's deliveries, a leaderboard's
 * standings (`?periodKey=` picks a challenge board's window).
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const info = resource(params.slug);
  const { api, session } = await authenticateShop(request);
  const isNew = !params.id || params.id === 'new';
  const fields = await formFields(config.coreUrl, info.schema, isNew ? 'create' : 'update');
  // Any resource's record, as the generic page reads it: by field name.
  let record: (Record<string, unknown> & { id: string }) | null = null;
  if (params.id && !isNew) {
    const found = await records(api, info.slug).get(params.id);
    if (!found.ok) throw failureResponse(found.failure);
    record = found.data;
  }
  const id = record?.id;
  const milestones =
    id && DEFINITION_SLUGS.includes(info.slug)
      ? await records(api, 'milestone').list({
          filters: whereEquals('linkedSchemaRecordId', id),
          sortBy: [{ fieldSlug: 'milestoneTargetValue', order: 'ASC' }],
        })
      : null;
  const milestoneFields = milestones ? await milestoneFormFields(config.coreUrl) : [];
  const coupons = id && info.slug === 'reward' ? await couponCounts(api, id) : null;
  const deliveries =
    id && info.slug === 'webhook' ? await records(api, 'webhook_log').list({ filters: whereEquals('webhookId', id), limit: 50 }) : null;
  const managed = deliveries !== null && (await isAppWebhook(session.shop, id));
  const standings =
    record && info.slug === 'leaderboard'
      ? await readStandings(
          api,
          {
            id: record.id,
            linkedSchemaSlug: String(record.linkedSchemaSlug),
            linkedSchemaRecordId: String(record.linkedSchemaRecordId),
            rankBy: typeof record.rankBy === 'string' ? record.rankBy : null,
          },
          new URL(request.url).searchParams.get('periodKey'),
        )
      : null;
  // What else a program's delete changes: the leaderboards ranking it show nothing after.
  const ranking =
    record && DEFINITION_SLUGS.includes(info.slug)
      ? await records(api, 'leaderboard').list({ filters: whereEquals('linkedSchemaRecordId', record.id) })
      : null;
  const values = ADMIN_MESSAGES[adminLanguage(request)].records.values;
  const choices = await choicesFor(api, config.coreUrl, [...fields, ...milestoneFields], (slug) => textFor(values, slug) ?? slug);
  return {
    choices,
    info,
    fields,
    record,
    milestones: milestones?.ok ? milestones.data : [],
    milestoneFields,
    coupons,
    deliveries: deliveries?.ok ? deliveries.data : [],
    standings,
    rankedBy: ranking?.ok ? ranking.data.map((b) => b.name ?? '') : [],
    managed,
  };
};

/**
 * The app's own webhook (app/core/event-subscription.server.ts): a change, a delete or a new secret
 * would stop Flow triggers and Shopify discounts until the app next repaired it, so it is shown with
 * its deliveries and kept as the app made it.
 */
const isAppWebhook = async (shop: string, id: string | undefined) => id !== undefined && (await shops.coreWebhook(shop))?.id === id;

/** What the page asks, with the language it shows, for the answer's words. */
type Intent = { language?: string } & (
  | { intent: 'save'; inputs: Record<string, string> }
  | { intent: 'delete' }
  | { intent: 'add-milestone'; inputs: Record<string, string> }
  | { intent: 'delete-milestone'; id: string }
  | { intent: 'rotate-secret' }
  | { intent: 'resend-delivery'; id: string }
);

type ActionResult = { ok: true; notice: string } | { ok: false; failure: CoreFailure; scope: 'record' | 'milestone' | 'delivery' };

/** A form's texts by field name; anything else the body holds is not the form's. */
const textsOf = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(objectOf(value)).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/** A milestone's or a delivery's id as the form sends it: text, or nothing (String() of an array nested deep overflows the stack). */
const idIn = (value: unknown): string => (typeof value === 'string' ? value : '');

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult | Response> => {
  const info = resource(params.slug);
  const { api, admin, session } = await authenticateShop(request);
  // A launcher, theme or template saved or deleted may change which records the storefront embed shows; a tier, what the points block promises.
  const embedChanged = () => (onStorefront(info.slug) ? syncWidgetMetafields(session.shop, admin, api) : undefined);
  const id = params.id ?? 'new';
  const isNew = id === 'new';
  const input = objectOf(await jsonBody(request));
  const messages = ADMIN_MESSAGES[claimedLanguage(input.language, request)];
  const m = messages.records;
  const fail = (failure: CoreFailure, scope: 'record' | 'milestone' | 'delivery' = 'record'): ActionResult => ({
    ok: false,
    failure: { ...failure, message: failureMessage(failure, messages.editors.refusals.outage) },
    scope,
  });
  const invalid = (errors: Record<string, string>) => ({ status: 400, message: m.record.needsAttention, fieldErrors: errors });
  const changes = input.intent === 'save' || input.intent === 'delete' || input.intent === 'rotate-secret';
  if (info.slug === 'webhook' && changes && (await isAppWebhook(session.shop, params.id)))
    return fail({ status: 409, message: m.deliveries.managed, fieldErrors: {} });
  switch (input.intent) {
    case 'save': {
      const fields = localize(await formFields(config.coreUrl, info.schema, isNew ? 'create' : 'update'), messages);
      const { body, errors } = toBody(fields, textsOf(input.inputs), isNew ? 'create' : 'update', messages);
      if (Object.keys(errors).length) return fail(invalid(errors));
      const saved = isNew ? await createFromValues(api, info.slug, body) : await updateFromValues(api, info.slug, id, body);
      if (!saved.ok) return fail(inFormWords(saved.failure, fields, messages));
      await embedChanged();
      if (isNew) return redirect(`/app/r/${info.slug}/${saved.data.id}`);
      return { ok: true, notice: format(m.record.saved, { singular: m.resources[info.slug].singular }) };
    }
    case 'delete': {
      const removed = await removeRecord(api, info.slug, id);
      if (!removed.ok) return fail(removed.failure);
      await embedChanged();
      return redirect(`/app/r/${info.slug}`);
    }
    case 'add-milestone': {
      const fields = localize(await milestoneFormFields(config.coreUrl), messages);
      const { body, errors } = toBody(fields, textsOf(input.inputs), 'create', messages);
      // A streak's milestones count periods, a mission's tasks: no fraction reaches them.
      const target = body.milestoneTargetValue;
      if ((info.slug === 'streak' || info.slug === 'mission') && typeof target === 'number' && !Number.isInteger(target))
        errors.milestoneTargetValue ??= format(m.checks.whole, {
          label: fields.find((f) => f.name === 'milestoneTargetValue')?.label ?? '',
        });
      if (Object.keys(errors).length) return fail(invalid(errors), 'milestone');
      const created = await createFromValues(api, 'milestone', { ...body, linkedSchemaSlug: info.slug, linkedSchemaRecordId: id });
      return created.ok ? { ok: true, notice: m.milestones.added } : fail(inFormWords(created.failure, fields, messages), 'milestone');
    }
    case 'delete-milestone': {
      const removed = await removeRecord(api, 'milestone', idIn(input.id));
      return removed.ok ? { ok: true, notice: m.milestones.deleted } : fail(removed.failure, 'milestone');
    }
    case 'rotate-secret': {
      const { error, response } = await api.POST('/schema/webhook/record/{id}/action/rotate_secret', {
        params: { path: { id } },
      });
      if (!response.ok)
        return fail({ status: response.status, message: error?.error.message ?? m.deliveries.rotateFailed, fieldErrors: {} });
      return { ok: true, notice: m.deliveries.rotated };
    }
    case 'resend-delivery': {
      // Back to pending and due now; the worker delivers it again. 409 while an attempt is under way.
      const { data, error, response } = await api.POST('/schema/webhook_log/record/{id}/action/resend', {
        params: { path: { id: idIn(input.id) } },
      });
      if (!data) return fail(coreFailure(response.status, error), 'delivery');
      return {
        ok: true,
        notice: format(m.deliveries.resent, {
          status: textFor(m.values, String(data.data.webhookLogStatus)) ?? String(data.data.webhookLogStatus),
        }),
      };
    }
    default:
      throw new Response('Unknown intent', { status: 400 });
  }
};

export default function RecordPage() {
  const { info, fields, record, milestones, milestoneFields, coupons, deliveries, choices, standings, rankedBy, managed } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const language = useAdminLanguage();
  const send = (payload: Intent) => submit({ ...payload, language }, { method: 'post', encType: 'application/json' });
  // The delete the merchant asked for, sent once they confirm it.
  const [deleting, setDeleting] = useState<{ name: string; intent: Intent } | null>(null);
  const busy = navigation.state === 'submitting';
  const recordFailure = result && !result.ok && result.scope === 'record' ? result.failure : undefined;
  const milestoneFailure = result && !result.ok && result.scope === 'milestone' ? result.failure : undefined;
  const deliveryFailure = result && !result.ok && result.scope === 'delivery' ? result.failure : undefined;
  const { editor, editors, common, records: m } = useMessages();
  const names = m.resources[info.slug];
  const name = record ? String(record.name ?? record.templateName ?? record.id) : names.new;
  // The record's editor in words, where its resource has one: this page is its "All fields" view.
  const editorOf = record ? editorUrl(info.slug, record.id) : null;
  const editProgram = editorOf
    ? [{ content: DEFINITION_SLUGS.includes(info.slug) ? editor.editProgram : editors.frame.openEditor, url: editorOf }]
    : [];
  return (
    <Page
      title={name}
      backAction={{ content: common.back, url: `/app/r/${info.slug}` }}
      titleMetadata={
        record?.status ? (
          <Badge tone={record.status === 'live' ? 'success' : undefined}>
            {textFor(editor.status.badge, String(record.status)) ?? String(record.status)}
          </Badge>
        ) : undefined
      }
      secondaryActions={[
        ...editProgram,
        ...(record && !managed
          ? [{ content: common.delete, destructive: true, onAction: () => setDeleting({ name, intent: { intent: 'delete' } }) }]
          : []),
      ]}
    >
      <ConfirmDelete
        name={deleting?.name ?? null}
        consequences={
          deleting?.intent.intent === 'delete' && rankedBy.length
            ? [
                format(m.deleteRanked[rankedBy.length === 1 ? 'one' : 'other'], {
                  leaderboards: new Intl.ListFormat(language).format(rankedBy.map((n) => `“${n}”`)),
                }),
              ]
            : []
        }
        onConfirm={() => deleting && send(deleting.intent)}
        onClose={() => setDeleting(null)}
      />
      <Layout>
        {result?.ok ? (
          <Layout.Section>
            <Banner tone="success" title={result.notice} />
          </Layout.Section>
        ) : null}
        {managed ? (
          <Layout.Section>
            <Banner tone="info" title={m.deliveries.managed} />
          </Layout.Section>
        ) : (
          <Layout.Section>
            <Card>
              <RecordForm
                key={String(record?.updatedAt ?? 'new')}
                saveBarId="record-save-bar"
                fields={fields}
                choices={choices}
                record={record}
                mode={record ? 'update' : 'create'}
                errors={recordFailure?.fieldErrors}
                message={recordFailure?.message}
                submitting={busy}
                submitLabel={record ? common.save : format(m.record.create, { singular: names.singular })}
                onSubmit={(inputs) => send({ intent: 'save', inputs })}
              />
            </Card>
          </Layout.Section>
        )}
        {record && DEFINITION_SLUGS.includes(info.slug) ? (
          <Layout.Section>
            <Card>
              <section aria-label={m.milestones.title}>
                <BlockStack gap="400">
                  <Text as="h2" variant="headingMd">
                    {m.milestones.title}
                  </Text>
                  {milestones.length ? (
                    <RowsTable
                      name={{ singular: m.milestones.columns.name, plural: m.milestones.title }}
                      headings={[m.milestones.columns.target, m.milestones.columns.name, m.milestones.columns.reward, common.actions]}
                      action
                      numeric={[0]}
                      titleColumn={1}
                      rows={milestones.map((row) => ({
                        id: String(row.id),
                        cells: [
                          String(row.milestoneTargetValue),
                          String(row.name),
                          row.rewardId ? (
                            <Link to={`/app/rewards/${String(row.rewardId)}`}>
                              {choices.reward?.find((c) => c.value === row.rewardId)?.label ?? m.milestones.reward}
                            </Link>
                          ) : (
                            '—'
                          ),
                          <Button
                            variant="plain"
                            tone="critical"
                            onClick={() => setDeleting({ name: String(row.name), intent: { intent: 'delete-milestone', id: row.id } })}
                          >
                            {common.delete}
                          </Button>,
                        ],
                      }))}
                    />
                  ) : (
                    <Text as="p" tone="subdued">
                      {m.milestones.empty}
                    </Text>
                  )}
                  <Text as="h3" variant="headingSm">
                    {m.milestones.add}
                  </Text>
                  <RecordForm
                    key={`milestones-${milestones.length}`}
                    fields={milestoneFields}
                    choices={choices}
                    mode="create"
                    errors={milestoneFailure?.fieldErrors}
                    message={milestoneFailure?.message}
                    submitting={busy}
                    submitLabel={m.milestones.addButton}
                    onSubmit={(inputs) => send({ intent: 'add-milestone', inputs })}
                  />
                </BlockStack>
              </section>
            </Card>
          </Layout.Section>
        ) : null}
        {standings ? (
          <Layout.Section>
            <Standings result={standings} />
          </Layout.Section>
        ) : null}
        {record && coupons ? (
          <Layout.Section>
            <CouponImport rewardId={record.id} available={coupons.available} issued={coupons.issued} />
          </Layout.Section>
        ) : null}
        {record && info.slug === 'webhook' ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="400">
                <InlineStack align="space-between">
                  <Text as="h2" variant="headingMd">
                    {m.deliveries.title}
                  </Text>
                  {managed ? null : <Button onClick={() => send({ intent: 'rotate-secret' })}>{m.deliveries.rotate}</Button>}
                </InlineStack>
                {deliveryFailure ? <Banner tone="critical" title={deliveryFailure.message} /> : null}
                {deliveries.length ? (
                  <RowsTable
                    name={{ singular: m.deliveries.columns.created, plural: m.deliveries.title }}
                    headings={[
                      m.deliveries.columns.created,
                      m.deliveries.columns.status,
                      m.deliveries.columns.attempts,
                      m.deliveries.columns.http,
                      m.deliveries.columns.lastError,
                      common.actions,
                    ]}
                    action
                    numeric={[2, 3]}
                    rows={deliveries.map((d) => ({
                      id: String(d.id),
                      cells: [
                        <LocalDate value={d.createdAt} />,
                        <Badge
                          tone={
                            d.webhookLogStatus === 'processed' ? 'success' : d.webhookLogStatus === 'max_errored' ? 'critical' : 'attention'
                          }
                        >
                          {textFor(m.values, String(d.webhookLogStatus)) ?? String(d.webhookLogStatus)}
                        </Badge>,
                        String(Number(d.retryCount ?? 0) + 1),
                        d.lastResponseStatus === null || d.lastResponseStatus === undefined ? '—' : String(d.lastResponseStatus),
                        String(d.lastError ?? ''),
                        <Button variant="plain" disabled={busy} onClick={() => send({ intent: 'resend-delivery', id: d.id })}>
                          {m.deliveries.resend}
                        </Button>,
                      ],
                    }))}
                  />
                ) : (
                  <Text as="p" tone="subdued">
                    {m.deliveries.empty}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <HelpFooter topic={helpTopicOf(info)} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
