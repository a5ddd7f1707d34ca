import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { type ShouldRevalidateFunction, useFetcher, useLoaderData } from '@remix-run/react';
import { Banner, BlockStack, Button, Card, FormLayout, InlineStack, Layout, Select, Text, TextField } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { authenticateShop } from '../admin/authenticate.server';
import { type EmailPreview as Preview, type EmailPreviewDraft, renderEmailPreview } from '../admin/email-preview.server';
import { EVENT_GROUPS, type EventCode, isEventCode } from '../admin/events';
import { refusalInWords } from '../admin/refusals';
import type { CoreFailure } from '../core/failure';
import { EditorFrame } from '../components/EditorFrame';
import { NameField, StatusSelect } from '../components/RecordFields';
import { EmailPreview } from '../components/EmailPreview';
import { TitledCard } from '../components/TitledCard';
import { type EditorAnswer, useEditorDraft } from '../components/useEditorDraft';
import { createRecord, records, removeRecord, type RecordOf, updateRecord } from '../core/records.server';
import { claimedLanguage, format, type Messages } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { failureResponse } from '../core/failure';

/** An email template in the merchant's words: subject, message with the details it may insert, header and footer by name, the core's preview. */

type Template = RecordOf<'email_template'>;
type Status = NonNullable<Template['status']>;

export interface EmailDraft {
  name: string;
  status: Status;
  sampleEventCode: EventCode;
  subject: string;
  htmlContent: string;
  emailHeaderId: string;
  emailFooterId: string;
}

/**
 * The details a message may insert (CONTRACT §11), each worded in i18n `editors.email.variables.list`;
 * the member's referral link leads to the shop's own domain, which Shopify sends on to its storefront.
 */
const variablesOf = (shop: string): { key: keyof Messages['editors']['email']['variables']['list']; text: string }[] => [
  { key: 'firstName', text: '{{$account_user.firstName}}' },
  { key: 'lastName', text: '{{$account_user.lastName}}' },
  { key: 'shopName', text: '{{$account.name}}' },
  { key: 'current', text: '{{$helpers.currentProgressValue}}' },
  { key: 'target', text: '{{$helpers.completionTargetValue}}' },
  { key: 'remaining', text: '{{$helpers.remainingValue}}' },
  { key: 'period', text: '{{$helpers.periodText}}' },
  { key: 'validTill', text: '{{$helpers.rewardValidTill}}' },
  { key: 'balance', text: '{{$helpers.formattedPointsBalance}}' },
  { key: 'tier', text: '{{$helpers.tierName}}' },
  { key: 'referralLink', text: `https://${shop}/?loyalty_ref={{$account_user.referralCode}}` },
  { key: 'unsubscribe', text: '{{$helpers.unsubscribeUrl}}' },
  { key: 'header', text: '{{>header}}' },
  { key: 'footer', text: '{{>footer}}' },
];

const draftOf = (t: Template | null): EmailDraft => ({
  name: t?.name ?? '',
  status: t?.status ?? 'live',
  sampleEventCode: t && isEventCode(t.sampleEventCode) ? t.sampleEventCode : 'streak_progress_milestone_completed',
  subject: t?.subject ?? '',
  htmlContent: t?.htmlContent ?? '',
  emailHeaderId: t?.emailHeaderId ?? '',
  emailFooterId: t?.emailFooterId ?? '',
});

type Named = { id: string; name: string };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { api, session } = await authenticateShop(request);
  const id = params.id && params.id !== 'new' ? params.id : null;
  const query = { limit: 250, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' as const }] };
  const [template, headers, footers] = await Promise.all([
    id ? records(api, 'email_template').get(id) : null,
    records(api, 'email_header').list(query),
    records(api, 'email_footer').list(query),
  ]);
  if (template && !template.ok) throw failureResponse(template.failure);
  const named = (list: typeof headers): Named[] => (list.ok ? list.data.map((r) => ({ id: r.id, name: String(r.name) })) : []);
  return {
    id,
    draft: draftOf(template?.ok ? template.data : null),
    headers: named(headers),
    footers: named(footers),
    variables: variablesOf(session.shop),
  };
};

const labelsOf = (m: Messages['editors']): Record<keyof EmailDraft, string> => ({
  name: m.name.label,
  status: m.status.label,
  sampleEventCode: m.email.sample.label,
  subject: m.email.subject.label,
  htmlContent: m.email.body.label,
  emailHeaderId: m.email.header.label,
  emailFooterId: m.email.footer.label,
});

type PreviewAnswer = { preview: Preview };

/** The part of the draft the preview renders, as the core's `render` action takes it. */
const previewDraftOf = (d: EmailDraft): EmailPreviewDraft => ({
  subject: d.subject,
  htmlContent: d.htmlContent,
  emailHeaderId: d.emailHeaderId || null,
  emailFooterId: d.emailFooterId || null,
  sampleEventCode: d.sampleEventCode,
});

/** A preview draft the page sent, or null when it is not one. */
function sentPreviewDraft(value: unknown): EmailPreviewDraft | null {
  const d = objectOf(value);
  const id = (v: unknown) => (v === null || typeof v === 'string' ? v || null : undefined);
  const [header, footer] = [id(d.emailHeaderId), id(d.emailFooterId)];
  if (typeof d.subject !== 'string' || typeof d.htmlContent !== 'string' || !isEventCode(d.sampleEventCode)) return null;
  if (header === undefined || footer === undefined) return null;
  return {
    subject: d.subject,
    htmlContent: d.htmlContent,
    emailHeaderId: header,
    emailFooterId: footer,
    sampleEventCode: d.sampleEventCode,
  };
}

export const action = async ({ request, params }: ActionFunctionArgs): Promise<EditorAnswer<EmailDraft> | PreviewAnswer | Response> => {
  const { api } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const language = claimedLanguage(input.language, request);
  const words = ADMIN_MESSAGES[language].editors;
  const id = params.id && params.id !== 'new' ? params.id : null;
  if (input.intent === 'preview' && id) {
    const draft = sentPreviewDraft(input.draft);
    if (!draft) throw new Response('The body must be {"intent": "preview", "draft": {…}}.', { status: 400 });
    // A draft that cannot render yet (typing is under way) is said as a save's refusal would be.
    const inWords = (failure: CoreFailure) => {
      const refusal = refusalInWords(failure, words.refusals, language, labelsOf(words));
      const texts = Object.values(refusal.fieldErrors);
      return texts.length ? texts.join(' ') : refusal.message;
    };
    return { preview: await renderEmailPreview(api, id, language, draft, inWords) };
  }
  if (input.intent === 'delete' && id) {
    const removed = await removeRecord(api, 'email_template', id);
    if (!removed.ok) throw failureResponse(removed.failure);
    return redirect('/app/r/email_template');
  }
  const d = objectOf(input.draft);
  if (input.intent !== 'save' || !isEventCode(d.sampleEventCode))
    throw new Response('The body must be {"intent": "save", "draft": {…}}.', { status: 400 });
  const text = (key: string) => (typeof d[key] === 'string' ? d[key] : '');
  const body = {
    name: text('name').trim(),
    status: text('status') as Status,
    sampleEventCode: d.sampleEventCode,
    subject: text('subject'),
    htmlContent: text('htmlContent'),
    emailHeaderId: text('emailHeaderId') || null,
    emailFooterId: text('emailFooterId') || null,
  };
  const saved = id ? await updateRecord(api, 'email_template', id, body) : await createRecord(api, 'email_template', body);
  if (!saved.ok) return { ok: false, refusal: refusalInWords(saved.failure, words.refusals, language, labelsOf(words)) };
  return { ok: true, id: saved.data.id, draft: draftOf(saved.data) };
};

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

const urlOf = (id: string) => `/app/notifications/emails/${id}`;
/** How long the preview waits after the last keystroke before it asks the core again. */
const PREVIEW_DELAY_MS = 400;
const BODY_ID = 'email-body';

export default function EmailEditorPage() {
  const { id, draft, headers, footers, variables } = useLoaderData<typeof loader>();
  return <EmailEditor key={id ?? 'new'} id={id} initial={draft} headers={headers} footers={footers} variables={variables} />;
}

type Variable = ReturnType<typeof variablesOf>[number];

function EmailEditor({
  id,
  initial,
  headers,
  footers,
  variables,
}: {
  id: string | null;
  initial: EmailDraft;
  headers: Named[];
  footers: Named[];
  variables: Variable[];
}) {
  const { editors: m } = useMessages();
  const language = useAdminLanguage();
  const form = useEditorDraft(initial, id, urlOf);
  const previewer = useFetcher<PreviewAnswer>();
  const { draft, errors } = form;
  const labels = labelsOf(m);
  const e = m.email;

  // The preview is the core's rendering of the draft as it stands, asked once typing pauses; a
  // newer ask cancels one still under way (the fetcher's own rule).
  const { submit: askPreview } = previewer;
  const shownDraft = JSON.stringify(previewDraftOf(draft));
  useEffect(() => {
    if (!id) return;
    const timer = setTimeout(
      () => askPreview({ intent: 'preview', language, draft: JSON.parse(shownDraft) }, { method: 'post', encType: 'application/json' }),
      PREVIEW_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [id, shownDraft, language, askPreview]);
  // What cannot render yet (an unclosed tag mid-typing) is said above the last rendering that could.
  const [rendered, setRendered] = useState<Extract<Preview, { ok: true }> | null>(null);
  const latest = previewer.data?.preview;
  useEffect(() => {
    if (latest?.ok) setRendered(latest);
  }, [latest]);

  const insert = (text: string) => {
    // At the cursor of the message, else at its end.
    const area = document.getElementById(BODY_ID);
    const at = area instanceof HTMLTextAreaElement ? area.selectionStart : draft.htmlContent.length;
    form.set('htmlContent', draft.htmlContent.slice(0, at) + text + draft.htmlContent.slice(at));
  };
  const save = () => {
    const found: Record<string, string> = {};
    for (const key of ['name', 'subject', 'htmlContent'] as const)
      if (!draft[key].trim()) found[key] = format(m.refusals.required, { label: labels[key] });
    if (form.check(found)) form.save();
  };
  const pick = (list: Named[], none: string) => [{ label: none, value: '' }, ...list.map((x) => ({ label: x.name, value: x.id }))];

  return (
    <EditorFrame
      id="email-save-bar"
      title={draft.name || initial.name || e.newTitle}
      backUrl="/app/r/email_template"
      record={{ slug: 'email_template', id, name: initial.name, status: initial.status }}
      helpTopic="emails"
      form={form}
      onSave={save}
    >
      <Layout.Section>
        <BlockStack gap="400">
          <Card>
            <FormLayout>
              <NameField label={labels.name} helpText={m.name.help} {...form.field('name')} />
              <StatusSelect label={labels.status} helpText={m.status.help} {...form.field('status')} />
              <TextField label={labels.subject} autoComplete="off" {...form.field('subject')} maxLength={256} />
              <TextField
                id={BODY_ID}
                label={labels.htmlContent}
                helpText={e.body.help}
                autoComplete="off"
                multiline={10}
                monospaced
                {...form.field('htmlContent')}
              />
              <FormLayout.Group>
                <Select
                  label={labels.emailHeaderId}
                  helpText={e.header.help}
                  options={pick(headers, e.header.none)}
                  {...form.field('emailHeaderId')}
                />
                <Select
                  label={labels.emailFooterId}
                  helpText={e.footer.help}
                  options={pick(footers, e.footer.none)}
                  {...form.field('emailFooterId')}
                />
              </FormLayout.Group>
              <Select
                label={labels.sampleEventCode}
                helpText={e.sample.help}
                options={EVENT_GROUPS.map((g) => ({
                  title: m.rule.events.groups[g.key],
                  options: g.codes.map((code) => ({ label: m.events[code].name, value: code })),
                }))}
                value={draft.sampleEventCode}
                onChange={(v) => isEventCode(v) && form.set('sampleEventCode', v)}
                error={errors.sampleEventCode}
              />
            </FormLayout>
          </Card>
          <Card>
            <section aria-label={e.variables.title}>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  {e.variables.title}
                </Text>
                {variables.map((v) => (
                  <InlineStack key={v.key} align="space-between" blockAlign="center">
                    <Text as="span">{e.variables.list[v.key]}</Text>
                    <Button
                      size="slim"
                      accessibilityLabel={`${e.variables.insert}: ${e.variables.list[v.key]}`}
                      onClick={() => insert(v.text)}
                    >
                      {e.variables.insert}
                    </Button>
                  </InlineStack>
                ))}
              </BlockStack>
            </section>
          </Card>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneThird">
        <TitledCard title={e.preview.title} region>
          <Text as="p" tone="subdued">
            {e.preview.help}
          </Text>
          {!id ? (
            <Text as="p">{e.preview.unsaved}</Text>
          ) : (
            <>
              {latest?.ok === false ? <Banner tone="warning" title={format(e.preview.failed, { message: latest.message })} /> : null}
              {rendered ? <EmailPreview preview={rendered} words={{ ...e.preview, frame: e.preview.title }} /> : null}
            </>
          )}
        </TitledCard>
      </Layout.Section>
    </EditorFrame>
  );
}
