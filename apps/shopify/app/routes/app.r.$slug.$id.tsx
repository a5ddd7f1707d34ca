import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from '@remix-run/react';
import { Badge, Banner, BlockStack, Button, Card, DataTable, InlineStack, Layout, Page, Select, Text } from '@shopify/polaris';
import { CouponImport } from '../components/CouponImport';
import { RecordForm } from '../components/RecordForm';
import { ShopifyDiscount } from '../components/ShopifyDiscount';
import { ADMIN_MESSAGES, claimedLanguage, format } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { type CoreFailure, coreFailure } from '../lib/admin.server';
import { choicesFor, type RecordData, records, whereEquals } from '../lib/records.server';
import { DEFINITION_SLUGS, resource } from '../lib/resources';
import { localize, toBody } from '../lib/schema';
import { formFields } from '../lib/schema.server';
import { readStandings, type StandingsView } from '../lib/standings.server';
import { authenticateShop, coreUrl } from '../shopify.server';

/**
 * One record of any resource: its form (create when the id is "new"), and what belongs to it —
 * a definition's milestones, a reward's coupon pool, a webhook's deliveries, a leaderboard's
 * standings (`?periodKey=` picks a challenge board's window).
 */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const info = resource(params.slug);
  const { api } = await authenticateShop(request);
  const isNew = params.id === 'new';
  const fields = await formFields(coreUrl, info.schema, isNew ? 'create' : 'update');
  let record: RecordData | null = null;
  if (!isNew) {
    const found = await records(api, info.slug).get(params.id!);
    if (!found.ok) throw new Response(found.failure.message, { status: found.failure.status });
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
  const milestoneFields = milestones
    ? (await formFields(coreUrl, 'Milestone', 'create')).filter((f) => f.name !== 'linkedSchemaSlug' && f.name !== 'linkedSchemaRecordId')
    : [];
  const coupons = id && info.slug === 'reward' ? await couponCounts(api, id) : null;
  const deliveries =
    id && info.slug === 'webhook' ? await records(api, 'webhook_log').list({ filters: whereEquals('webhookId', id), limit: 50 }) : null;
  const standings =
    id && info.slug === 'leaderboard' ? await readStandings(api, id, new URL(request.url).searchParams.get('periodKey')) : null;
  const choices = await choicesFor(api, [...fields, ...milestoneFields]);
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
  };
};

async function couponCounts(api: Parameters<typeof records>[0], rewardId: string) {
  const count = async (issued: boolean) => {
    const result = await records(api, 'coupon').list({
      filters: {
        operator: 'and',
        conditions: [
          { fieldSlug: 'rewardId', operator: 'equals', fieldValue: rewardId },
          { fieldSlug: 'isCouponIssued', operator: 'equals', fieldValue: issued },
        ],
      },
      limit: 1,
      fetchTotalCount: true,
    });
    return result.ok ? (result.total ?? 0) : 0;
  };
  const [available, issued] = await Promise.all([count(false), count(true)]);
  return { available, issued };
}

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

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult | Response> => {
  const info = resource(params.slug);
  const { api } = await authenticateShop(request);
  const isNew = params.id === 'new';
  const input = (await request.json()) as Intent;
  const messages = ADMIN_MESSAGES[claimedLanguage(input.language, request)];
  const m = messages.records;
  const fail = (failure: CoreFailure, scope: 'record' | 'milestone' | 'delivery' = 'record'): ActionResult => ({
    ok: false,
    failure,
    scope,
  });
  const invalid = (errors: Record<string, string>) => ({ status: 400, message: m.record.needsAttention, fieldErrors: errors });
  switch (input.intent) {
    case 'save': {
      const fields = localize(await formFields(coreUrl, info.schema, isNew ? 'create' : 'update'), messages);
      const { body, errors } = toBody(fields, input.inputs, isNew ? 'create' : 'update', m.checks);
      if (Object.keys(errors).length) return fail(invalid(errors));
      const saved = isNew ? await records(api, info.slug).create(body) : await records(api, info.slug).update(params.id!, body);
      if (!saved.ok) return fail(saved.failure);
      if (isNew) return redirect(`/app/r/${info.slug}/${saved.data.id}`);
      return { ok: true, notice: format(m.record.saved, { singular: m.resources[info.slug].singular }) };
    }
    case 'delete': {
      const removed = await records(api, info.slug).remove(params.id!);
      if (!removed.ok) return fail(removed.failure);
      return redirect(`/app/r/${info.slug}`);
    }
    case 'add-milestone': {
      const fields = localize(
        (await formFields(coreUrl, 'Milestone', 'create')).filter(
          (f) => f.name !== 'linkedSchemaSlug' && f.name !== 'linkedSchemaRecordId',
        ),
        messages,
      );
      const { body, errors } = toBody(fields, input.inputs, 'create', m.checks);
      if (Object.keys(errors).length) return fail(invalid(errors), 'milestone');
      const created = await records(api, 'milestone').create({ ...body, linkedSchemaSlug: info.slug, linkedSchemaRecordId: params.id });
      return created.ok ? { ok: true, notice: m.milestones.added } : fail(created.failure, 'milestone');
    }
    case 'delete-milestone': {
      const removed = await records(api, 'milestone').remove(input.id);
      return removed.ok ? { ok: true, notice: m.milestones.deleted } : fail(removed.failure, 'milestone');
    }
    case 'rotate-secret': {
      const { error, response } = await api.POST('/schema/webhook/record/{id}/action/rotate_secret', {
        params: { path: { id: params.id! } },
      });
      if (!response.ok)
        return fail({
          status: response.status,
          message: (error as { error?: { message?: string } })?.error?.message ?? m.deliveries.rotateFailed,
          fieldErrors: {},
        });
      return { ok: true, notice: m.deliveries.rotated };
    }
    case 'resend-delivery': {
      // Back to pending and due now; the worker delivers it again. 409 while an attempt is under way.
      const { data, error, response } = await api.POST('/schema/webhook_log/record/{id}/action/resend', {
        params: { path: { id: input.id } },
      });
      if (!response.ok) return fail(coreFailure(response.status, error), 'delivery');
      return { ok: true, notice: format(m.deliveries.resent, { status: String(data!.data.webhookLogStatus) }) };
    }
  }
};

export default function RecordPage() {
  const { info, fields, record, milestones, milestoneFields, coupons, deliveries, choices, standings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const submit = useSubmit();
  const language = useAdminLanguage();
  const send = (payload: Intent) => submit({ ...payload, language } as never, { method: 'post', encType: 'application/json' });
  const busy = navigation.state === 'submitting';
  const recordFailure = result && !result.ok && result.scope === 'record' ? result.failure : undefined;
  const milestoneFailure = result && !result.ok && result.scope === 'milestone' ? result.failure : undefined;
  const deliveryFailure = result && !result.ok && result.scope === 'delivery' ? result.failure : undefined;
  const { editor, common, records: m } = useMessages();
  const names = m.resources[info.slug];
  const name = record ? String(record.name ?? record.templateName ?? record.id) : names.new;
  const editProgram =
    record && DEFINITION_SLUGS.includes(info.slug) ? [{ content: editor.editProgram, url: `/app/programs/${info.slug}/${record.id}` }] : [];
  return (
    <Page
      title={name}
      backAction={{ url: `/app/r/${info.slug}` }}
      titleMetadata={
        record?.status ? (
          <Badge tone={record.status === 'live' ? 'success' : undefined}>
            {(editor.status.badge as Record<string, string | undefined>)[String(record.status)] ?? String(record.status)}
          </Badge>
        ) : undefined
      }
      secondaryActions={[
        ...editProgram,
        ...(record ? [{ content: common.delete, destructive: true, onAction: () => send({ intent: 'delete' }) }] : []),
      ]}
    >
      <Layout>
        {result?.ok ? (
          <Layout.Section>
            <Banner tone="success" title={result.notice} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <RecordForm
              key={String(record?.updatedAt ?? 'new')}
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
        {record && DEFINITION_SLUGS.includes(info.slug) ? (
          <Layout.Section>
            <Card>
              <section aria-label={m.milestones.title}>
                <BlockStack gap="400">
                  <Text as="h2" variant="headingMd">
                    {m.milestones.title}
                  </Text>
                  {milestones.length ? (
                    <DataTable
                      columnContentTypes={['numeric', 'text', 'text', 'text']}
                      headings={[m.milestones.columns.target, m.milestones.columns.name, m.milestones.columns.reward, '']}
                      rows={milestones.map((row) => [
                        String(row.milestoneTargetValue),
                        String(row.name),
                        row.rewardId ? <Link to={`/app/r/reward/${String(row.rewardId)}`}>{m.milestones.reward}</Link> : '—',
                        <Button
                          key={row.id}
                          variant="plain"
                          tone="critical"
                          onClick={() => send({ intent: 'delete-milestone', id: row.id })}
                        >
                          {common.delete}
                        </Button>,
                      ])}
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
        {record && info.slug === 'reward' ? (
          <Layout.Section>
            <ShopifyDiscount rewardId={record.id} />
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
                  <Button onClick={() => send({ intent: 'rotate-secret' })}>{m.deliveries.rotate}</Button>
                </InlineStack>
                {deliveryFailure ? <Banner tone="critical" title={deliveryFailure.message} /> : null}
                {deliveries.length ? (
                  <DataTable
                    columnContentTypes={['text', 'text', 'numeric', 'numeric', 'text', 'text']}
                    headings={[
                      m.deliveries.columns.created,
                      m.deliveries.columns.status,
                      m.deliveries.columns.attempts,
                      m.deliveries.columns.http,
                      m.deliveries.columns.lastError,
                      '',
                    ]}
                    rows={deliveries.map((d) => [
                      String(d.createdAt).slice(0, 19).replace('T', ' '),
                      <Badge
                        key={d.id}
                        tone={
                          d.webhookLogStatus === 'processed' ? 'success' : d.webhookLogStatus === 'max_errored' ? 'critical' : 'attention'
                        }
                      >
                        {String(d.webhookLogStatus)}
                      </Badge>,
                      String(Number(d.retryCount ?? 0) + 1),
                      d.lastResponseStatus === null || d.lastResponseStatus === undefined ? '—' : String(d.lastResponseStatus),
                      String(d.lastError ?? ''),
                      <Button
                        key={`resend-${d.id}`}
                        variant="plain"
                        disabled={busy}
                        onClick={() => send({ intent: 'resend-delivery', id: d.id })}
                      >
                        {m.deliveries.resend}
                      </Button>,
                    ])}
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
      </Layout>
    </Page>
  );
}

/** A leaderboard's top entries with each member's external id; a challenge board picks its window. */
function Standings({ result }: { result: { ok: true; view: StandingsView } | { ok: false; failure: { message: string } } }) {
  const [, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const m = useMessages().records.standings;
  // The window being loaded stays picked: the select follows the loader's data, which would show the
  // previous window until the navigation ends.
  const asked = navigation.location ? new URLSearchParams(navigation.location.search).get('periodKey') : null;
  const pending = asked && result.ok && result.view.windows.includes(asked) ? asked : null;
  if (!result.ok) {
    return (
      <Card>
        <Banner tone="critical" title={format(m.failed, { message: result.failure.message })} />
      </Card>
    );
  }
  const { view } = result;
  return (
    <Card>
      <section aria-label={m.title}>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {m.title}
            </Text>
            {view.periodKey ? (
              <Select
                label={m.window}
                labelInline
                options={view.windows.map((key, at) => ({ label: at === 0 ? format(m.current, { key }) : key, value: key }))}
                value={pending ?? view.periodKey}
                onChange={(periodKey) => setSearchParams({ periodKey })}
              />
            ) : null}
          </InlineStack>
          {view.entries.length ? (
            <DataTable
              columnContentTypes={['numeric', 'text', 'text', 'numeric']}
              headings={[m.columns.rank, m.columns.displayName, m.columns.externalId, m.columns.value]}
              rows={view.entries.map((e) => [String(e.rank), e.displayName, e.externalId, String(e.value)])}
              footerContent={format(m.ranked, { count: view.rankedCount })}
            />
          ) : (
            <Text as="p" tone="subdued">
              {m.empty}
            </Text>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}
