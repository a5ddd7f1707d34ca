import type { AccountClient } from '../core/client.server';
import type { AdminLanguage } from '../i18n';

/** An email as the core renders it for a preview, or why it could not. */
export type EmailPreview = { ok: true; subject: string; html: string } | { ok: false; message: string };

/**
 * The core's own rendering of an email template (its `render` action, CONTRACT §11): the template
 * with its header, footer and the live email theme, filled with the core's sample data for the
 * template's sample moment, in the admin's language.
 */
export async function renderEmailPreview(api: AccountClient, templateId: string, language: AdminLanguage): Promise<EmailPreview> {
  const { data, error, response } = await api.POST('/schema/email_template/record/{id}/action/render', {
    // The action reads `languageCode` like every record route (CONTRACT §7); its OpenAPI entry does not list it.
    params: { path: { id: templateId }, query: { languageCode: language } } as { path: { id: string } },
  });
  if (!data) return { ok: false, message: error?.error.message ?? String(response.status) };
  return { ok: true, subject: data.data.subject, html: data.data.html };
}
