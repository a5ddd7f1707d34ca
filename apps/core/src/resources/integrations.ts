import type { Config } from '../config.js';
import { conflict, type ErrorDetail } from '../errors.js';
import { deleteRulesUsing } from '../notifications/rules.js';
import { sendingDomains } from '../notifications/sending-domains.js';
import { defineResource, type AnyResource, type Row, type Values } from '../records/resource.js';
import type { ValuesOfFields } from '../records/row-types.js';
import { cloudChatFields, cloudSmsFields, type DnsRecord, pushCloudMessagingFields, serviceEmailFields } from '../schema/integrations.js';
import { ADMIN } from './common.js';
import { publicAddressCheck } from './webhooks.js';

function serviceEmailRules(record: Values, op: 'create' | 'update'): ErrorDetail[] {
  if (record.useGamopandaDomain !== false) return [];
  const details: ErrorDetail[] = [];
  const domain = typeof record.domain === 'string' ? record.domain.toLowerCase() : undefined;
  const mailFrom = typeof record.mailFrom === 'string' ? record.mailFrom.toLowerCase() : undefined;
  if (op === 'update' && (!domain || !mailFrom)) {
    details.push({
      field: 'useGamopandaDomain',
      code: 'not_editable',
      message: 'domain and mailFrom are set on create only: create a new service_email for a custom domain.',
    });
  }
  const required = (f: string) =>
    details.push({ field: f, code: 'required', message: `"${f}" is required when useGamopandaDomain is false.` });
  if (op === 'create' && !domain) required('domain');
  if (op === 'create' && !mailFrom) required('mailFrom');
  if (record.senderEmailAddress == null) required('senderEmailAddress');
  if (domain && typeof record.senderEmailAddress === 'string' && record.senderEmailAddress.split('@').pop()!.toLowerCase() !== domain) {
    details.push({ field: 'senderEmailAddress', code: 'domain_mismatch', message: `Must be an address at ${domain}.` });
  }
  if (domain && mailFrom) {
    if (mailFrom === domain || mailFrom.endsWith(`.${domain}`)) {
      details.push({ field: 'mailFrom', code: 'invalid', message: `The subdomain only (e.g. "mail" for mail.${domain}).` });
    } else if (mailFrom.length + 1 + domain.length > 253) {
      details.push({ field: 'mailFrom', code: 'too_long', message: 'mailFrom.domain must be at most 253 characters.' });
    }
  }
  return details;
}

/** The email integration; custom domains get a DKIM key sealed with the master key. */
export function createServiceEmail(config: Config): AnyResource {
  const domains = sendingDomains(config);

  /** A custom domain's names as stored (lower case) and the DNS records to publish for it. */
  async function setUpCustomDomain(domainGiven: string, mailFromGiven: string, columns: Row) {
    const domain = domainGiven.toLowerCase();
    const mailFrom = mailFromGiven.toLowerCase();
    return { domain, mailFrom, dnsRecords: await domains.setUp(domain, mailFrom, columns) };
  }

  return defineResource({
    slug: 'service_email',
    table: 'service_email',
    description: 'The email integration: the shared sending domain, or a custom domain verified through DNS.',
    access: ADMIN,
    fields: serviceEmailFields,
    validate: serviceEmailRules,
    // Setting up a custom domain asks the email provider, whose failure is a 502.
    answers: { create: [502] },
    rules: {
      description:
        'With useGamopandaDomain false: domain, mailFrom (create only) and senderEmailAddress are required, senderEmailAddress is an address at ' +
        'domain, mailFrom is the subdomain label only (not domain or under it) and mailFrom.domain is at most 253 characters; ' +
        'domain and mailFrom cannot be changed by an update.',
      create: [
        {
          if: { properties: { useGamopandaDomain: { const: false } }, required: ['useGamopandaDomain'] },
          then: {
            required: ['domain', 'mailFrom', 'senderEmailAddress'],
            properties: { domain: { type: 'string' }, mailFrom: { type: 'string' }, senderEmailAddress: { type: 'string' } },
          },
        },
      ],
    },
    async beforeCreate({ values, columns }) {
      // serviceEmailRules require both names for a custom domain.
      if (values.useGamopandaDomain === false) Object.assign(values, await setUpCustomDomain(values.domain!, values.mailFrom!, columns));
      // Names kept for a later switch to the custom domain are stored as it would store them.
      else for (const key of ['domain', 'mailFrom'] as const) if (typeof values[key] === 'string') values[key] = values[key].toLowerCase();
    },
    async beforeUpdate({ values, columns, existing }) {
      // A record created on the shared domain with a domain given switches to it only now.
      if (values.useGamopandaDomain === false && existing && !existing.dkim_selector) {
        values.dnsRecords = (await setUpCustomDomain(existing.domain!, existing.mail_from!, columns)).dnsRecords;
      }
    },
    beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'service_email'),
    actions: {
      verify_dns: {
        returns: 'service_email',
        description: 'Looks up the records in dnsRecords and sets the per-check flags; custom, unverified domains only.',
        async run({ trx, row, toColumns, serialize }) {
          if (row.use_gamopanda_domain || !row.domain)
            throw conflict('This integration uses the shared domain; there is nothing to verify.');
          if (row.is_verified) throw conflict('This domain is already verified.');
          const flags = await domains.verify(row.dns_records as DnsRecord[]);
          const [updated] = await trx<Row>('service_email')
            .where({ account_id: row.account_id, id: row.id })
            .update({ ...toColumns(flags), updated_at: trx.fn.now() })
            .returning('*');
          return serialize(updated!);
        },
      },
    },
  });
}

/** projectId, clientEmail and privateKeyId follow the service account they come from. */
function extractServiceAccount(values: ValuesOfFields<typeof pushCloudMessagingFields>): void {
  const account = values.serviceAccountJSON;
  if (!account) return;
  Object.assign(values, { projectId: account.project_id, clientEmail: account.client_email, privateKeyId: account.private_key_id });
}

/** The push integration; its service account's `token_uri` is an address the service posts to, checked as a webhook's. */
export function createPushCloudMessaging(config: Config): AnyResource {
  const checkAddress = publicAddressCheck(config);
  return defineResource({
    slug: 'push_cloud_messaging',
    table: 'push_cloud_messaging',
    description: "The push integration: a service-account credential of the push provider's v1 API.",
    access: ADMIN,
    fields: pushCloudMessagingFields,
    async precheck(values) {
      await checkAddress(values.serviceAccountJSON?.token_uri, 'serviceAccountJSON.token_uri');
    },
    async beforeCreate({ values }) {
      extractServiceAccount(values);
    },
    async beforeUpdate({ values }) {
      extractServiceAccount(values);
    },
    beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'push_cloud_messaging'),
  });
}

export const cloudSms = defineResource({
  slug: 'cloud_sms',
  table: 'cloud_sms',
  description: 'The SMS integration: cloud credentials, region and the sender id shown to recipients.',
  access: ADMIN,
  fields: cloudSmsFields,
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'cloud_sms'),
});

export const cloudChat = defineResource({
  slug: 'cloud_chat',
  table: 'cloud_chat',
  description: 'The chat-message integration: cloud credentials, region and the messaging business account and phone number.',
  access: ADMIN,
  fields: cloudChatFields,
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'cloud_chat'),
});
