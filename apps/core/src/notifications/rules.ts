import type { Knex } from 'knex';
import type { Row } from '../db/rows.js';
import { conflict, type ErrorDetail, invalidInput } from '../errors.js';
import { INTEGRATION_PROVIDERS, type IntegrationProvider, TEMPLATE_OF_PROVIDER } from '../schema/notifications.js';

/** Deletes the notification rules that send with a deleted integration or template (CONTRACT "Deleting"). */
export async function deleteRulesUsing(trx: Knex, row: Row, slug: string): Promise<void> {
  const provider = INTEGRATION_PROVIDERS.find((p) => p === slug || TEMPLATE_OF_PROVIDER[p] === slug);
  if (!provider) return;
  const column = provider === slug ? 'integration_id' : 'template_id';
  await trx('notification')
    .where({ account_id: row.account_id, integration_provider: provider, [column]: row.id })
    .delete();
}

/** "an email_template", "an sms_template", "a cloud_sms": the article as the name is read aloud. */
const withArticle = (slug: string) => `${/^(email|sms)/.test(slug) ? 'an' : 'a'} ${slug}`;

/** Which of these resources holds the record, for an id given where another kind was expected. */
async function kindOf(trx: Knex, accountId: string, id: unknown, slugs: readonly string[]): Promise<string | undefined> {
  for (const slug of slugs) {
    if (await trx(slug).where({ account_id: accountId, id }).first('id')) return slug;
  }
  return undefined;
}

interface IdAndStatus {
  id: string;
  status: string;
}

/** What the check reads of a rule: its provider and the records it references. */
interface RuleReferences {
  integrationProvider: IntegrationProvider;
  integrationId: string;
  templateId: string;
}

/**
 * The rule's integration and template must exist in the account and match the provider (400); a
 * rule that goes live needs both live (409), or every event it matches would be skipped. Both rows
 * are locked FOR SHARE until the rule is written, so neither can be deleted (which deletes the
 * rules that use it) or changed in between; pausing them later stays allowed.
 */
export async function checkRule(trx: Knex, accountId: string, rule: RuleReferences, goesLive: boolean): Promise<void> {
  const provider = rule.integrationProvider;
  const templateSlug = TEMPLATE_OF_PROVIDER[provider];
  // Sequential: inside a transaction both queries share one connection.
  const integration = await trx(provider)
    .where({ account_id: accountId, id: rule.integrationId })
    .forShare()
    .first<IdAndStatus | undefined>('id', 'status');
  const template = await trx(templateSlug)
    .where({ account_id: accountId, id: rule.templateId })
    .forShare()
    .first<IdAndStatus | undefined>('id', 'status');
  const missing: ErrorDetail[] = [];
  if (!integration) {
    const other = await kindOf(
      trx,
      accountId,
      rule.integrationId,
      INTEGRATION_PROVIDERS.filter((p) => p !== provider),
    );
    const what = other
      ? `${rule.integrationId} is ${withArticle(other)} integration`
      : `No ${provider} record with id ${rule.integrationId}`;
    missing.push({
      field: 'integrationId',
      code: 'not_found',
      message: `${what}; ${withArticle(provider)} rule sends through ${withArticle(provider)} integration.`,
    });
  }
  if (!template) {
    const other = await kindOf(
      trx,
      accountId,
      rule.templateId,
      Object.values(TEMPLATE_OF_PROVIDER).filter((t) => t !== templateSlug),
    );
    const what = other ? `${rule.templateId} is ${withArticle(other)}` : `No ${templateSlug} record with id ${rule.templateId}`;
    missing.push({
      field: 'templateId',
      code: 'not_found',
      message: `${what}; ${withArticle(provider)} rule sends ${withArticle(templateSlug)}.`,
    });
  }
  if (missing.length)
    throw invalidInput('The rule references records that do not exist, or are not of the kind its provider sends with.', missing);
  if (!goesLive) return;
  const idle: ErrorDetail[] = [];
  if (integration!.status !== 'live') {
    idle.push({
      field: 'integrationId',
      code: 'not_live',
      message: `The ${provider} integration ${rule.integrationId} is ${integration!.status}.`,
    });
  }
  if (template!.status !== 'live') {
    idle.push({ field: 'templateId', code: 'not_live', message: `The ${templateSlug} ${rule.templateId} is ${template!.status}.` });
  }
  if (idle.length) {
    throw conflict(
      `A live rule needs a live integration and template, or it could never send: ${idle.map((d) => d.message).join(' ')}`,
      idle,
    );
  }
}
