import type { EventCode } from './events';
import type { AccountClient } from '../core/client.server';
import { failureMessage } from '../core/failure';
import { type AdminLanguage } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';

/** A push, SMS or chat message as the core fills it in for a preview, or why it could not. */
export type MessagePreview =
  | ({ ok: true; unknownVariables: string[] } & (
      | { kind: 'push'; title: string; body: string }
      | { kind: 'sms'; body: string }
      | { kind: 'chat'; templateName: string; bodyParameters: string[] }
    ))
  | { ok: false; message: string };

export type MessageTemplate = 'push_notification_template' | 'sms_template' | 'chat_message_template';

/**
 * The core's own filling-in of a push, SMS or chat template (its `render` action) for the sample
 * moment of `eventCode`, one of the events the rule sends it on, in the admin's language.
 */
export async function renderMessagePreview(
  api: AccountClient,
  slug: MessageTemplate,
  templateId: string,
  eventCode: EventCode,
  language: AdminLanguage,
): Promise<MessagePreview> {
  // The action reads `languageCode` like every record route (CONTRACT §7); its OpenAPI entry does not list it.
  const init = { params: { path: { id: templateId }, query: { languageCode: language } } as { path: { id: string } }, body: { eventCode } };
  const failed = (error: { error: { message: string } } | undefined, status: number) => ({
    ok: false as const,
    message: failureMessage({ status, message: error?.error.message ?? String(status) }, ADMIN_MESSAGES[language].editors.refusals.outage),
  });
  switch (slug) {
    case 'push_notification_template': {
      const { data, error, response } = await api.POST('/schema/push_notification_template/record/{id}/action/render', init);
      return data ? { ok: true, kind: 'push', ...data.data } : failed(error, response.status);
    }
    case 'sms_template': {
      const { data, error, response } = await api.POST('/schema/sms_template/record/{id}/action/render', init);
      return data ? { ok: true, kind: 'sms', ...data.data } : failed(error, response.status);
    }
    case 'chat_message_template': {
      const { data, error, response } = await api.POST('/schema/chat_message_template/record/{id}/action/render', init);
      return data ? { ok: true, kind: 'chat', ...data.data } : failed(error, response.status);
    }
  }
}
