import { z } from 'zod';
import { conflict, invalidInput } from '../errors.js';
import { EVENT_CODES } from '../events/codes.js';
import type { LanguageCode } from '../formats.js';
import { chatLanguage, messageTexts, pushTexts, renderPreview, sampleRendering } from '../notifications/render.js';
import { checkRule, deleteRulesUsing } from '../notifications/rules.js';
import { DEFAULT_STRING_MAX, field, type Fields } from '../records/fields.js';
import { type ActionArgs, type ActionDef, type AnyResource, defineResource, type RowFor } from '../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../records/validate.js';
import {
  chatMessageTemplateFields,
  emailTemplateFields,
  type EmailTemplateRow,
  notificationFields,
  notificationLogFields,
  pushNotificationTemplateFields,
  smsTemplateFields,
  templateBasics,
} from '../schema/notifications.js';
import { EMAIL_PARTIALS, TemplateError, templateErrors } from '../templates/render.js';
import { ADMIN, ADMIN_READ, description, name } from './common.js';
import { duplicateEventCodes } from './webhooks.js';

/** What `templateErrors` checks, for the OpenAPI document: a JSON Schema cannot say it. */
const handlebarsRule = (fields: string, partials: readonly string[] = []) =>
  `${fields} ${fields.includes(' and ') || fields.startsWith('each') ? 'are' : 'is'} checked as Handlebars on every write: a syntax error, a partial other than ` +
  `${partials.length ? partials.map((p) => `{{>${p}}}`).join(' or ') : 'none'} (or one defined inline), a call of an unknown helper, or a built-in block helper ` +
  'with the wrong number of arguments is 400 naming the field.';

/** What a preview adds to what it renders: a variable it reads that the sample lacks renders empty (CONTRACT §11). */
const UNKNOWN_VARIABLES = z.array(z.string()).meta({
  description:
    'The variables the texts read (as written, e.g. $account_user.firstname) that the sample data of the event lacks: a notification renders them empty, so each is a misspelt name or one this event does not carry.',
});

/** A preview's rendering; a template that cannot render (a missing partial, a helper's misuse) is 409. */
async function renderedOrConflict<T>(render: () => T | Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (err) {
    if (err instanceof TemplateError)
      throw conflict(`The template${err.field ? `'s ${err.field}` : ''} cannot be rendered: ${err.message}`);
    throw err;
  }
}

/**
 * What the email template's `render` action may be sent: an unsaved draft rendered in place of the
 * stored values, so an editor's preview follows the merchant's typing. Its texts are the preview
 * language's; its header and footer ids must name the account's, as a save's must.
 */
const emailDraft = z.strictObject({
  subject: z.string().max(256).optional(),
  // The stored field's bound: a draft is no longer than what a save would take.
  htmlContent: z.string().max(DEFAULT_STRING_MAX).optional(),
  emailHeaderId: z.uuid().nullable().optional(),
  emailFooterId: z.uuid().nullable().optional(),
  sampleEventCode: z.enum(EVENT_CODES).optional(),
});

/**
 * The stored template with the draft laid over it, the draft's texts as the preview language's; the
 * draft's header and footer ids are checked as a save checks them.
 */
async function draftedTemplate({ trx, ctx, records, row, body }: ActionArgs<typeof emailTemplateFields>): Promise<EmailTemplateRow> {
  if (body === undefined) return row;
  const parsed = emailDraft.safeParse(body);
  if (!parsed.success)
    throw invalidInput(
      'The body must be empty or a draft of subject, htmlContent, emailHeaderId, emailFooterId and sampleEventCode.',
      issueDetails('', parsed.error),
    );
  const draft = parsed.data;
  const errors = [...templateErrors(draft, ['subject']), ...templateErrors(draft, ['htmlContent'], EMAIL_PARTIALS)];
  if (errors.length) throw invalidInput('The draft is not a template that can be rendered.', errors);
  const { emailHeaderId, emailFooterId } = draft;
  await records.checkReferences(trx, records.registry.require('email_template'), ctx, { emailHeaderId, emailFooterId });
  const language = ctx.languageCode ?? ctx.account!.defaultLanguageCode;
  return {
    ...row,
    ...(draft.subject !== undefined ? { subject: { [language]: draft.subject } } : {}),
    ...(draft.htmlContent !== undefined ? { html_content: { [language]: draft.htmlContent } } : {}),
    ...(draft.emailHeaderId !== undefined ? { email_header_id: draft.emailHeaderId } : {}),
    ...(draft.emailFooterId !== undefined ? { email_footer_id: draft.emailFooterId } : {}),
    ...(draft.sampleEventCode !== undefined ? { sample_event_code: draft.sampleEventCode } : {}),
  };
}

export const emailTemplate = defineResource({
  slug: 'email_template',
  table: 'email_template',
  description: 'Email templates (Handlebars): a localisable subject and HTML body with an optional header and footer.',
  access: ADMIN,
  fields: emailTemplateFields,
  // Only the body is rendered with the header and footer partials.
  validate: (record) => [...templateErrors(record, ['subject']), ...templateErrors(record, ['htmlContent'], EMAIL_PARTIALS)],
  rules: { description: handlebarsRule('subject and htmlContent', EMAIL_PARTIALS) },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'email_template'),
  actions: {
    render: {
      // It only reads: previews asked as an editor types must not queue behind each other or a save.
      locksRecord: false,
      body: emailDraft,
      returns: z.object({ subject: z.string(), html: z.string(), text: z.string(), unknownVariables: UNKNOWN_VARIABLES }),
      description:
        'Renders the template against built-in sample data for its sampleEventCode, in languageCode (else the account default), with the linked header, footer and live email theme; answers {subject, html, text, unknownVariables} (text: the plain-text part sent with the HTML; unknownVariables: what the subject, body, header and footer read that the sample lacks). An optional body renders an unsaved draft instead of the stored values it names (subject and htmlContent as the languageCode texts); a draft that is not valid Handlebars is 400 naming the field, as a write would be.',
      run: async (args) => {
        const shown = await draftedTemplate(args);
        return renderedOrConflict(() => renderPreview(args.trx, args.ctx, shown, new Date()));
      },
    },
  },
});

export const emailTheme = defineResource({
  slug: 'email_theme',
  table: 'email_theme',
  description: 'Email themes: global CSS inlined into rendered emails.',
  access: ADMIN,
  fields: {
    name: name(),
    description: description(),
    status: field.status({ required: true }),
    style: field.string({
      description:
        'CSS added after the default stylesheet (which styles container, content, field-table, field-label, field-value, message-box and cta-button-primary), so its rules override the default ones; absent or null: the default stylesheet alone.',
    }),
  },
  uniqueErrors: {
    email_theme_name_unique: { status: 409, field: 'name', message: 'An email theme with this name already exists.' },
  },
});

function emailPart(slug: 'email_header' | 'email_footer', column: string): AnyResource {
  return defineResource({
    slug,
    table: slug,
    description: `Email ${slug === 'email_header' ? 'headers' : 'footers'}: localisable Handlebars HTML placed by the {{>${slug.slice(6)}}} partial.`,
    access: ADMIN,
    fields: {
      ...templateBasics(),
      htmlContent: field.string({ required: true, min: 1, localisable: true }),
    },
    validate: (record) => templateErrors(record, ['htmlContent']),
    rules: { description: handlebarsRule('htmlContent') },
    async beforeDelete({ trx, row }) {
      await trx('email_template')
        .where({ account_id: row.account_id, [column]: row.id })
        .update({ [column]: null });
    },
  });
}

export const emailHeader = emailPart('email_header', 'email_header_id');
export const emailFooter = emailPart('email_footer', 'email_footer_id');

const renderBody = z.strictObject({ eventCode: z.enum(EVENT_CODES) });

/**
 * The `render` action of push, SMS and chat templates: their texts filled in for the sample moment
 * of `{"eventCode"}` (the event a rule sends them on), as the sender fills them in, in languageCode.
 */
function renderAction<F extends Fields, S extends z.ZodRawShape>(
  returns: z.ZodObject<S>,
  what: string,
  texts: (fill: ReturnType<typeof messageTexts>, row: RowFor<F>) => z.infer<z.ZodObject<S>>,
  plainLanguage?: (row: RowFor<F>) => LanguageCode | undefined,
): ActionDef<F> {
  return {
    returns: returns.extend({ unknownVariables: UNKNOWN_VARIABLES }),
    body: renderBody,
    description: `Renders ${what} against built-in sample data for {"eventCode"} (one of the event codes), in languageCode (else the account default), as a notification on that event would send it, with unknownVariables: what the texts read that the sample lacks. 409 when a text cannot be rendered.`,
    async run({ trx, ctx, row, body }) {
      const parsed = renderBody.safeParse(bodyOrEmpty(body));
      if (!parsed.success) throw invalidInput('The body must be {"eventCode": <an event code>}.', issueDetails('', parsed.error));
      const rendering = await sampleRendering(trx, ctx, parsed.data.eventCode, new Date());
      const fill = messageTexts(rendering, ctx.account!, plainLanguage?.(row));
      const filled = await renderedOrConflict(() => texts(fill, row));
      return { ...filled, unknownVariables: fill.unknownVariables() };
    },
  };
}

/**
 * The push data map's values, checked as the title and body are (the sender fills each in), each
 * named `data.<key>`.
 */
function pushDataErrors(data: Record<string, string> | null | undefined) {
  if (!data) return [];
  const texts = Object.fromEntries(Object.entries(data).map(([key, value]) => [`data.${key}`, value]));
  return templateErrors(texts, Object.keys(texts));
}

export const pushNotificationTemplate = defineResource({
  slug: 'push_notification_template',
  table: 'push_notification_template',
  description: 'Push message templates: localisable Handlebars title and body, an optional image and a data map.',
  access: ADMIN,
  fields: pushNotificationTemplateFields,
  validate: (record) => [...templateErrors(record, ['title', 'body']), ...pushDataErrors(record.data)],
  rules: { description: handlebarsRule('title, body and each value of data') },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'push_notification_template'),
  actions: {
    render: renderAction<
      typeof pushNotificationTemplateFields,
      { title: z.ZodString; body: z.ZodString; data: z.ZodNullable<z.ZodRecord<z.ZodString, z.ZodString>> }
    >(
      z.object({ title: z.string(), body: z.string(), data: z.record(z.string(), z.string()).nullable() }),
      'the title, body and data values',
      pushTexts,
    ),
  },
});

export const smsTemplate = defineResource({
  slug: 'sms_template',
  table: 'sms_template',
  description: 'SMS templates: a localisable Handlebars body.',
  access: ADMIN,
  fields: smsTemplateFields,
  validate: (record) => templateErrors(record, ['body']),
  rules: { description: handlebarsRule('body') },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'sms_template'),
  actions: {
    render: renderAction<typeof smsTemplateFields, { body: z.ZodString }>(z.object({ body: z.string() }), 'the body', ({ text }, row) => ({
      body: text(row.body, 'body'),
    })),
  },
});

export const chatMessageTemplate = defineResource({
  slug: 'chat_message_template',
  table: 'chat_message_template',
  description: 'Chat message templates: a template pre-approved at the chat provider and the values of its body parameters.',
  access: ADMIN,
  fields: chatMessageTemplateFields,
  validate: (record) => templateErrors(record, ['bodyParameters']),
  rules: { description: handlebarsRule('each of bodyParameters') },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'chat_message_template'),
  actions: {
    render: renderAction<typeof chatMessageTemplateFields, { templateName: z.ZodString; bodyParameters: z.ZodArray<z.ZodString> }>(
      z.object({ templateName: z.string(), bodyParameters: z.array(z.string()) }),
      "the provider template's name and the values of its body parameters",
      ({ template }, row) => ({
        templateName: row.template_name,
        bodyParameters: row.body_parameters.map((p, i) => template(p, `bodyParameters[${i}]`)),
      }),
      (row) => chatLanguage(row.template_language_code),
    ),
  },
});

export const notification = defineResource({
  slug: 'notification',
  table: 'notification',
  description: 'Notification rules: on the listed events, render the template for the member and send it through the integration.',
  access: ADMIN,
  fields: notificationFields,
  validate: (record) => duplicateEventCodes(record.eventCodes),
  rules: { description: 'eventCodes lists each code once.' },
  async beforeCreate({ trx, ctx, values }) {
    await checkRule(trx, ctx.account!.id, values, values.status === 'live');
  },
  async beforeUpdate({ trx, ctx, values, existing }) {
    const referencesChange = 'integrationProvider' in values || 'integrationId' in values || 'templateId' in values;
    // Only a change that makes the rule live over its records is checked: a live rule whose integration was paused since can still be renamed.
    const goesLive = (values.status ?? existing!.status) === 'live' && (existing!.status !== 'live' || referencesChange);
    if (!referencesChange && !goesLive) return;
    await checkRule(
      trx,
      ctx.account!.id,
      {
        integrationProvider: values.integrationProvider ?? existing!.integration_provider,
        integrationId: values.integrationId ?? existing!.integration_id,
        templateId: values.templateId ?? existing!.template_id,
      },
      goesLive,
    );
  },
});

export const notificationLog = defineResource({
  slug: 'notification_log',
  table: 'notification_log',
  description: 'One notification sent (or skipped) for one event and rule. Written by the service.',
  access: ADMIN_READ,
  fields: notificationLogFields,
});
