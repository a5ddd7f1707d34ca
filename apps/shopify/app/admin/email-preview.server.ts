import type { EventCode } from './events';
import type { AccountClient } from '../core/client.server';
import { type CoreFailure, coreFailure, failureMessage } from '../core/failure';
import { type AdminLanguage } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';

/** An email as the core renders it for a preview, or why it could not. */
export type EmailPreview = { ok: true; subject: string; html: string; unknownVariables: string[] } | { ok: false; message: string };

/** An editor's unsaved template, rendered in place of the stored one; its texts are the preview language's. */
export interface EmailPreviewDraft {
  subject: string;
  htmlContent: string;
  emailHeaderId: string | null;
  emailFooterId: string | null;
  sampleEventCode: EventCode;
}

/**
 * The core's own rendering of an email template (its `render` action, CONTRACT §11): the template,
 * or the draft laid over it, with its header, footer and the live email theme, filled with the
 * core's sample data for the template's sample moment, in the admin's language, with the variables
 * it reads that the moment lacks (sent empty). `inWords` says a
 * refusal as the page shows it (by default the core's message, an outage in the admin's words).
 */
export async function renderEmailPreview(
  api: AccountClient,
  templateId: string,
  language: AdminLanguage,
  draft?: EmailPreviewDraft,
  inWords: (failure: CoreFailure) => string = (failure) => failureMessage(failure, ADMIN_MESSAGES[language].editors.refusals.outage),
): Promise<EmailPreview> {
  const { data, error, response } = await api.POST('/schema/email_template/record/{id}/action/render', {
    // The action reads `languageCode` like every record route (CONTRACT §7); its OpenAPI entry does not list it.
    params: { path: { id: templateId }, query: { languageCode: language } } as { path: { id: string } },
    ...(draft ? { body: draft } : {}),
  });
  if (!data) return { ok: false, message: inWords(coreFailure(response.status, error)) };
  return { ok: true, subject: data.data.subject, html: data.data.html, unknownVariables: data.data.unknownVariables };
}
