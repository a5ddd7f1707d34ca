import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node';
import { type ShouldRevalidateFunction, useFetcher, useLoaderData } from '@remix-run/react';
import { BlockStack, Card, ChoiceList, FormLayout, InlineError, Layout, Select, Text } from '@shopify/polaris';
import { useEffect } from 'react';
import { authenticateShop } from '../admin/authenticate.server';
import { type EmailPreview as Preview, renderEmailPreview } from '../admin/email-preview.server';
import { type MessagePreview, renderMessagePreview } from '../admin/message-preview.server';
import { EVENT_GROUPS, isEventCode, type EventCode } from '../admin/events';
import { refusalInWords } from '../admin/refusals';
import { EditorFrame } from '../components/EditorFrame';
import { NameField, StatusSelect } from '../components/RecordFields';
import { EmailPreview } from '../components/EmailPreview';
import { MessagePreview as MessagePreviewView } from '../components/MessagePreview';
import { TitledCard } from '../components/TitledCard';
import { type EditorAnswer, useEditorDraft } from '../components/useEditorDraft';
import { createRecord, records, removeRecord, type RecordOf, updateRecord } from '../core/records.server';
import { claimedLanguage, format, type Messages } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { objectOf } from '../json';
import { jsonBody } from '../http.server';
import { failureResponse } from '../core/failure';

/** A notification rule in the merchant's words: moments picked from a list, the channel, connection and message by name, and a preview. */

type Rule = RecordOf<'notification'>;
type Provider = NonNullable<Rule['integrationProvider']>;
type Status = NonNullable<Rule['status']>;

/** Each channel's connection resource and message resource (CONTRACT §6 notification). */
const CHANNELS = {
  service_email: { integration: 'service_email', template: 'email_template' },
  push_cloud_messaging: { integration: 'push_cloud_messaging', template: 'push_notification_template' },
  cloud_sms: { integration: 'cloud_sms', template: 'sms_template' },
  cloud_chat: { integration: 'cloud_chat', template: 'chat_message_template' },
} as const satisfies Record<Provider, { integration: string; template: string }>;
const PROVIDERS = Object.keys(CHANNELS) as Provider[];
const isProvider = (value: unknown): value is Provider => typeof value === 'string' && Object.hasOwn(CHANNELS, value);

export interface RuleDraft {
  name: string;
  description: string;
  status: Status;
  eventCodes: EventCode[];
  integrationProvider: Provider;
  integrationId: string;
  templateId: string;
}

const draftOf = (rule: Rule | null): RuleDraft => ({
  name: rule?.name ?? '',
  description: rule?.description ?? '',
  status: rule?.status ?? 'draft',
  eventCodes: (rule?.eventCodes ?? []).filter(isEventCode),
  integrationProvider: rule?.integrationProvider ?? 'service_email',
  integrationId: rule?.integrationId ?? '',
  templateId: rule?.templateId ?? '',
});

type Named = { id: string; name: string };
const named = (list: { ok: true; data: Record<string, unknown>[] } | { ok: false }): Named[] =>
  list.ok ? list.data.map((r) => ({ id: String(r.id), name: String(r.name ?? r.templateName ?? '') })) : [];

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const id = params.id && params.id !== 'new' ? params.id : null;
  const query = { limit: 250, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' as const }] };
  const [rule, ...lists] = await Promise.all([
    id ? records(api, 'notification').get(id) : null,
    ...PROVIDERS.flatMap((p) => [records(api, CHANNELS[p].integration).list(query), records(api, CHANNELS[p].template).list(query)]),
  ]);
  if (rule && !rule.ok) throw failureResponse(rule.failure);
  const choices = Object.fromEntries(
    PROVIDERS.map((p, i) => [p, { integrations: named(lists[2 * i]!), templates: named(lists[2 * i + 1]!) }]),
  ) as Record<Provider, { integrations: Named[]; templates: Named[] }>;
  return { id, draft: draftOf(rule?.ok ? rule.data : null), choices };
};

const FIELD_OF = (field: string): keyof RuleDraft | undefined =>
  field.startsWith('eventCodes') ? 'eventCodes' : (field as keyof RuleDraft);

const labelsOf = (m: Messages['editors']): Record<keyof RuleDraft, string> => ({
  name: m.name.label,
  description: m.description.label,
  status: m.status.label,
  eventCodes: m.rule.events.label,
  integrationProvider: m.rule.channel.label,
  integrationId: m.rule.integration.label,
  templateId: m.rule.template.label,
});

type PreviewAnswer = { preview: Preview } | { message: MessagePreview };

export const action = async ({ request, params }: ActionFunctionArgs): Promise<EditorAnswer<RuleDraft> | PreviewAnswer | Response> => {
  const { api } = await authenticateShop(request);
  const input = objectOf(await jsonBody(request));
  const language = claimedLanguage(input.language, request);
  const words = ADMIN_MESSAGES[language].editors;
  const id = params.id && params.id !== 'new' ? params.id : null;
  if (input.intent === 'preview' && typeof input.templateId === 'string') {
    if (!isProvider(input.provider) || input.provider === 'service_email')
      return { preview: await renderEmailPreview(api, input.templateId, language) };
    if (!isEventCode(input.eventCode)) throw new Response('A preview of a push, SMS or chat message names its eventCode.', { status: 400 });
    return { message: await renderMessagePreview(api, CHANNELS[input.provider].template, input.templateId, input.eventCode, language) };
  }
  if (input.intent === 'delete' && id) {
    const removed = await removeRecord(api, 'notification', id);
    if (!removed.ok) throw failureResponse(removed.failure);
    return redirect('/app/r/notification');
  }
  const d = objectOf(input.draft);
  if (input.intent !== 'save' || !isProvider(d.integrationProvider) || !Array.isArray(d.eventCodes))
    throw new Response('The body must be {"intent": "save", "draft": {…}}.', { status: 400 });
  const text = (key: string) => (typeof d[key] === 'string' ? d[key] : '');
  const body = {
    name: text('name').trim(),
    description: text('description').trim() || null,
    status: text('status') as Status,
    eventCodes: d.eventCodes.filter(isEventCode),
    integrationProvider: d.integrationProvider,
    integrationId: text('integrationId'),
    templateId: text('templateId'),
  };
  const saved = id ? await updateRecord(api, 'notification', id, body) : await createRecord(api, 'notification', body);
  if (!saved.ok) return { ok: false, refusal: refusalInWords(saved.failure, words.refusals, language, labelsOf(words), FIELD_OF) };
  return { ok: true, id: saved.data.id, draft: draftOf(saved.data) };
};

export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' ? false : defaultShouldRevalidate;

const urlOf = (id: string) => `/app/notifications/rules/${id}`;

export default function RuleEditorPage() {
  const { id, draft, choices } = useLoaderData<typeof loader>();
  return <RuleEditor key={id ?? 'new'} id={id} initial={draft} choices={choices} />;
}

function RuleEditor({
  id,
  initial,
  choices,
}: {
  id: string | null;
  initial: RuleDraft;
  choices: Record<Provider, { integrations: Named[]; templates: Named[] }>;
}) {
  const { editors: m } = useMessages();
  const language = useAdminLanguage();
  const form = useEditorDraft(initial, id, urlOf);
  const previewer = useFetcher<PreviewAnswer>();
  const { draft, errors } = form;
  const labels = labelsOf(m);
  const r = m.rule;
  const channel = choices[draft.integrationProvider];
  const isEmail = draft.integrationProvider === 'service_email';

  // The preview follows the picked message, and for push, SMS and chat the first picked moment (and
  // the language it is read in): an email template has a sample moment of its own.
  const { submit: askPreview } = previewer;
  const provider = draft.integrationProvider;
  const previewEvent = isEmail ? null : (draft.eventCodes[0] ?? null);
  useEffect(() => {
    if (draft.templateId && (isEmail || previewEvent))
      askPreview(
        { intent: 'preview', provider, templateId: draft.templateId, eventCode: previewEvent, language },
        { method: 'post', encType: 'application/json' },
      );
  }, [isEmail, provider, previewEvent, draft.templateId, language, askPreview]);

  const save = () => {
    const found: Record<string, string> = {};
    const required = (key: keyof RuleDraft, empty: boolean) => {
      if (empty) found[key] = format(m.refusals.required, { label: labels[key] });
    };
    required('name', !draft.name.trim());
    required('eventCodes', !draft.eventCodes.length);
    required('integrationId', !draft.integrationId);
    required('templateId', !draft.templateId);
    if (form.check(found)) form.save();
  };
  const pickChannel = (value: string) => {
    if (!isProvider(value)) return;
    form.set('integrationProvider', value);
    form.set('integrationId', '');
    form.set('templateId', '');
  };
  const options = (list: Named[], none: string) =>
    list.length ? [{ label: '', value: '' }, ...list.map((x) => ({ label: x.name, value: x.id }))] : [{ label: none, value: '' }];

  return (
    <EditorFrame
      id="rule-save-bar"
      title={draft.name || initial.name || r.newTitle}
      backUrl="/app/r/notification"
      record={{ slug: 'notification', id, name: initial.name, status: initial.status }}
      helpTopic="notifications"
      form={form}
      onSave={save}
    >
      <Layout.Section>
        <BlockStack gap="400">
          <Card>
            <FormLayout>
              <NameField label={labels.name} helpText={m.name.help} {...form.field('name')} />
              <StatusSelect label={labels.status} helpText={m.status.help} {...form.field('status')} />
            </FormLayout>
          </Card>
          <TitledCard title={labels.eventCodes} region>
            <Text as="p" tone="subdued">
              {r.events.help}
            </Text>
            {EVENT_GROUPS.map((group) => (
              <ChoiceList
                key={group.key}
                title={r.events.groups[group.key]}
                allowMultiple
                choices={group.codes.map((code) => ({ label: m.events[code].name, value: code, helpText: m.events[code].when }))}
                selected={draft.eventCodes.filter((c) => group.codes.includes(c))}
                onChange={(picked) =>
                  form.set('eventCodes', [...draft.eventCodes.filter((c) => !group.codes.includes(c)), ...picked.filter(isEventCode)])
                }
              />
            ))}
            {errors.eventCodes ? <InlineError message={errors.eventCodes} fieldID="eventCodes" /> : null}
          </TitledCard>
          <Card>
            <FormLayout>
              <Select
                label={labels.integrationProvider}
                options={PROVIDERS.map((p) => ({ label: r.channel.options[p], value: p }))}
                value={draft.integrationProvider}
                onChange={pickChannel}
                error={errors.integrationProvider}
              />
              <Select
                label={labels.integrationId}
                helpText={r.integration.help}
                options={options(channel.integrations, r.integration.none)}
                {...form.field('integrationId')}
              />
              <Select
                label={labels.templateId}
                helpText={r.template.help}
                options={options(channel.templates, r.template.none)}
                {...form.field('templateId')}
              />
            </FormLayout>
          </Card>
        </BlockStack>
      </Layout.Section>
      <Layout.Section variant="oneThird">
        <TitledCard title={r.preview.title} region>
          <Text as="p" tone="subdued">
            {r.preview.help}
          </Text>
          <RulePreview templateId={draft.templateId} isEmail={isEmail} event={previewEvent} answer={previewer.data} />
        </TitledCard>
      </Layout.Section>
    </EditorFrame>
  );
}

/** What the preview shows: a hint until a message (and for push, SMS and chat a moment) is picked, then the core's rendering. */
function RulePreview({
  templateId,
  isEmail,
  event,
  answer,
}: {
  templateId: string;
  isEmail: boolean;
  event: EventCode | null;
  answer: PreviewAnswer | undefined;
}) {
  const { editors: m } = useMessages();
  const words = m.rule.preview;
  if (!templateId) return <Text as="p">{words.empty}</Text>;
  if (isEmail)
    return answer && 'preview' in answer ? <EmailPreview preview={answer.preview} words={{ ...words, frame: words.title }} /> : null;
  if (!event) return <Text as="p">{words.noEvent}</Text>;
  if (!answer || !('message' in answer)) return null;
  return (
    <BlockStack gap="200">
      <Text as="p" tone="subdued">
        {format(words.forEvent, { event: m.events[event].name })}
      </Text>
      <MessagePreviewView preview={answer.message} words={{ ...words, region: words.message }} />
    </BlockStack>
  );
}
