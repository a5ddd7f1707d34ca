import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from '@remix-run/react';
import { Badge, Banner, BlockStack, Button, Card, DataTable, InlineStack, Layout, Page, Select, Text } from '@shopify/polaris';
import { CouponImport } from '../components/CouponImport';
import { RecordForm } from '../components/RecordForm';
import { ShopifyDiscount } from '../components/ShopifyDiscount';
import { useMessages } from '../i18n/context';
import { type CoreFailure, coreFailure } from '../lib/admin.server';
import { choicesFor, type RecordData, records, whereEquals } from '../lib/records.server';
import { DEFINITION_SLUGS, resource } from '../lib/resources';
import { toBody } from '../lib/schema';
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

type Intent =
  | { intent: 'save'; inputs: Record<string, string> }
  | { intent: 'delete' }
  | { intent: 'add-milestone'; inputs: Record<string, string> }
  | { intent: 'delete-milestone'; id: string }
  | { intent: 'rotate-secret' }
  | { intent: 'resend-delivery'; id: string };

type ActionResult = { ok: true; notice: string } | { ok: false; failure: CoreFailure; scope: 'record' | 'milestone' | 'delivery' };

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult | Response> => {
  const info = resource(params.slug);
  const { api } = await authenticateShop(request);
  const isNew = params.id === 'new';
  const input = (await request.json()) as Intent;
  const fail = (failure: CoreFailure, scope: 'record' | 'milestone' | 'delivery' = 'record'): ActionResult => ({
    ok: false,
    failure,
    scope,
  });
  const invalid = (errors: Record<string, string>) => ({ status: 400, message: 'Some fields need attention.', fieldErrors: errors });
  switch (input.intent) {
    case 'save': {
      const fields = await formFields(coreUrl, info.schema, isNew ? 'create' : 'update');
      const { body, errors } = toBody(fields, input.inputs, isNew ? 'create' : 'update');
      if (Object.keys(errors).length) return fail(invalid(errors));
      const saved = isNew ? await records(api, info.slug).create(body) : await records(api, info.slug).update(params.id!, body);
      if (!saved.ok) return fail(saved.failure);
      if (isNew) return redirect(`/app/r/${info.slug}/${saved.data.id}`);
      return { ok: true, notice: `Saved ${info.singular}.` };
    }
    case 'delete': {
      const removed = await records(api, info.slug).remove(params.id!);
      if (!removed.ok) return fail(removed.failure);
      return redirect(`/app/r/${info.slug}`);
    }
    case 'add-milestone': {
      const fields = (await formFields(coreUrl, 'Milestone', 'create')).filter(
        (f) => f.name !== 'linkedSchemaSlug' && f.name !== 'linkedSchemaRecordId',
      );
      const { body, errors } = toBody(fields, input.inputs, 'create');
      if (Object.keys(errors).length) return fail(invalid(errors), 'milestone');
      const created = await records(api, 'milestone').create({ ...body, linkedSchemaSlug: info.slug, linkedSchemaRecordId: params.id });
      return created.ok ? { ok: true, notice: 'Milestone added.' } : fail(created.failure, 'milestone');
    }
    case 'delete-milestone': {
      const removed = await records(api, 'milestone').remove(input.id);
      return removed.ok ? { ok: true, notice: 'Milestone deleted.' } : fail(removed.failure, 'milestone');
    }
    case 'rotate-secret': {
      const { error, response } = await api.POST('/schema/webhook/record/{id}/action/rotate_secret', {
        params: { path: { id: params.id! } },
      });
      if (!response.ok)
        return fail({
          status: response.status,
          message: (error as { error?: { message?: string } })?.error?.message ?? 'Could not rotate the secret.',
          fieldErrors: {},
        });
      return { ok: true, notice: 'Webhook secret rotated.' };
    }
    case 'resend-delivery': {
      // Back to pending and due now; the worker delivers it again. 409 while an attempt is under way.
      const { data, error, response } = await api.POST('/schema/webhook_log/record/{id}/action/resend', {
        params: { path: { id: input.id } },
      });
      if (!response.ok) return fail(coreFailure(response.status, error), 'delivery');
      return { ok: true, notice: `Delivery resent: ${data!.data.webhookLogStatus}.` };
    }
  }
};

export default function RecordPage() {
  const { info, fields, record, milestones, milestoneFields, coupons, deliveries, choices, standings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const submit = useSubmit();
  const send = (payload: Intent) => submit(payload as never, { method: 'post', encType: 'application/json' });
  const busy = navigation.state === 'submitting';
  const recordFailure = result && !result.ok && result.scope === 'record' ? result.failure : undefined;
  const milestoneFailure = result && !result.ok && result.scope === 'milestone' ? result.failure : undefined;
  const deliveryFailure = result && !result.ok && result.scope === 'delivery' ? result.failure : undefined;
  const name = record ? String(record.name ?? record.templateName ?? record.id) : `New ${info.singular}`;
  const { editor } = useMessages();
  const editProgram =
    record && DEFINITION_SLUGS.includes(info.slug) ? [{ content: editor.editProgram, url: `/app/programs/${info.slug}/${record.id}` }] : [];
  return (
    <Page
      title={name}
      backAction={{ url: `/app/r/${info.slug}` }}
      titleMetadata={
        record?.status ? <Badge tone={record.status === 'live' ? 'success' : undefined}>{String(record.status)}</Badge> : undefined
      }
      secondaryActions={[
        ...editProgram,
        ...(record ? [{ content: 'Delete', destructive: true, onAction: () => send({ intent: 'delete' }) }] : []),
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
              submitLabel={record ? 'Save' : `Create ${info.singular}`}
              onSubmit={(inputs) => send({ intent: 'save', inputs })}
            />
          </Card>
        </Layout.Section>
        {record && DEFINITION_SLUGS.includes(info.slug) ? (
          <Layout.Section>
            <Card>
              <section aria-label="Milestones">
                <BlockStack gap="400">
                  <Text as="h2" variant="headingMd">
                    Milestones
                  </Text>
                  {milestones.length ? (
                    <DataTable
                      columnContentTypes={['numeric', 'text', 'text', 'text']}
                      headings={['Target', 'Name', 'Reward', '']}
                      rows={milestones.map((m) => [
                        String(m.milestoneTargetValue),
                        String(m.name),
                        m.rewardId ? <Link to={`/app/r/reward/${String(m.rewardId)}`}>reward</Link> : '—',
                        <Button key={m.id} variant="plain" tone="critical" onClick={() => send({ intent: 'delete-milestone', id: m.id })}>
                          Delete
                        </Button>,
                      ])}
                    />
                  ) : (
                    <Text as="p" tone="subdued">
                      No milestones yet.
                    </Text>
                  )}
                  <Text as="h3" variant="headingSm">
                    Add a milestone
                  </Text>
                  <RecordForm
                    key={`milestones-${milestones.length}`}
                    fields={milestoneFields}
                    choices={choices}
                    mode="create"
                    errors={milestoneFailure?.fieldErrors}
                    message={milestoneFailure?.message}
                    submitting={busy}
                    submitLabel="Add milestone"
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
                    Deliveries
                  </Text>
                  <Button onClick={() => send({ intent: 'rotate-secret' })}>Rotate secret</Button>
                </InlineStack>
                {deliveryFailure ? <Banner tone="critical" title={deliveryFailure.message} /> : null}
                {deliveries.length ? (
                  <DataTable
                    columnContentTypes={['text', 'text', 'numeric', 'numeric', 'text', 'text']}
                    headings={['Created', 'Status', 'Attempts', 'HTTP', 'Last error', '']}
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
                        Resend
                      </Button>,
                    ])}
                  />
                ) : (
                  <Text as="p" tone="subdued">
                    No deliveries yet.
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
  if (!result.ok) {
    return (
      <Card>
        <Banner tone="critical" title={`Standings: ${result.failure.message}`} />
      </Card>
    );
  }
  const { view } = result;
  return (
    <Card>
      <section aria-label="Standings">
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              Standings
            </Text>
            {view.periodKey ? (
              <Select
                label="Window"
                labelInline
                options={view.windows.map((key, at) => ({ label: at === 0 ? `${key} (current)` : key, value: key }))}
                value={view.periodKey}
                onChange={(periodKey) => setSearchParams({ periodKey })}
              />
            ) : null}
          </InlineStack>
          {view.entries.length ? (
            <DataTable
              columnContentTypes={['numeric', 'text', 'text', 'numeric']}
              headings={['Rank', 'Display name', 'External ID', 'Value']}
              rows={view.entries.map((e) => [String(e.rank), e.displayName, e.externalId, String(e.value)])}
              footerContent={`${view.rankedCount} members ranked`}
            />
          ) : (
            <Text as="p" tone="subdued">
              No one is ranked yet.
            </Text>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}
