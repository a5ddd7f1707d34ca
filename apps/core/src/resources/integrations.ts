import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../config.js';
import { conflict, type ErrorDetail } from '../errors.js';
import { deleteRulesUsing } from '../notifications/rules.js';
import { type DnsRecord, dnsRecord, sendingDomains } from '../notifications/sending-domains.js';
import { field } from '../records/fields.js';
import { defineResource, type Resource, type Row, type Values } from '../records/resource.js';
import { ADMIN, description, name } from './common.js';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`, 'i');
const SUBDOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`, 'i');

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
  const required = (f: string) => details.push({ field: f, code: 'required', message: `"${f}" is required when useGamopandaDomain is false.` });
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
export function createServiceEmail(config: Config): Resource {
  const domains = sendingDomains(config);

  async function setUpCustomDomain(values: Values, columns: Row): Promise<void> {
    const domain = (values.domain as string).toLowerCase();
    const mailFrom = (values.mailFrom as string).toLowerCase();
    Object.assign(values, { domain, mailFrom, dnsRecords: await domains.setUp(domain, mailFrom, columns) });
  }

  return defineResource({
    slug: 'service_email',
    table: 'service_email',
    description: 'The email integration: the shared sending domain, or a custom domain verified through DNS.',
    access: ADMIN,
    fields: {
      name: name(),
      description: description(),
      useGamopandaDomain: field.boolean({
        required: true,
        default: true,
        description: 'True: the shared pre-verified sending domain. False: domain, mailFrom and senderEmailAddress are required.',
      }),
      replyToEmailAddress: field.email({ required: true, description: 'Value of the Reply-To header.' }),
      status: field.status({ required: true, default: 'draft' }),
      domain: field.string({
        createOnly: true,
        max: 253,
        pattern: DOMAIN,
        patternMessage: 'Expected a domain name such as example.com',
        description: 'Custom sending domain; required when useGamopandaDomain is false; not editable after creation.',
      }),
      mailFrom: field.string({
        createOnly: true,
        max: 200,
        pattern: SUBDOMAIN,
        patternMessage: 'Expected a subdomain label such as mail',
        description: 'Custom MAIL FROM subdomain of domain (e.g. "mail"); required when useGamopandaDomain is false; not editable after creation.',
      }),
      senderEmailAddress: field.email({ description: 'From address; required for a custom domain, and at that domain.' }),
      isVerified: field.boolean({ readOnly: true, description: 'True when every DNS check passes.' }),
      isDomainVerified: field.boolean({ readOnly: true }),
      isDkimVerified: field.boolean({ readOnly: true }),
      isMailFromVerified: field.boolean({ readOnly: true }),
      dnsRecords: field.json(z.array(dnsRecord), { readOnly: true, description: 'DNS records to publish for a custom domain.' }),
    },
    validate: serviceEmailRules,
    async beforeCreate({ values, columns }) {
      if (values.useGamopandaDomain === false) await setUpCustomDomain(values, columns);
    },
    async beforeUpdate({ values, columns, existing }) {
      // A record created on the shared domain with a domain given switches to it only now.
      if (values.useGamopandaDomain === false && !existing!.dkim_selector) {
        const merged: Values = { domain: existing!.domain, mailFrom: existing!.mail_from };
        await setUpCustomDomain(merged, columns);
        values.dnsRecords = merged.dnsRecords;
      }
    },
    beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'service_email'),
    actions: {
      verify_dns: {
        returns: 'service_email',
        description: 'Looks up the records in dnsRecords and sets the per-check flags; custom, unverified domains only.',
        async run({ trx, row, toColumns, serialize }) {
          if (row.use_gamopanda_domain || !row.domain) throw conflict('This integration uses the shared domain; there is nothing to verify.');
          if (row.is_verified) throw conflict('This domain is already verified.');
          const flags = await domains.verify(row.dns_records as DnsRecord[]);
          const [updated] = (await trx('service_email')
            .where({ account_id: row.account_id, id: row.id })
            .update({ ...toColumns(flags), updated_at: trx.fn.now() })
            .returning('*')) as Row[];
          return serialize(updated!);
        },
      },
    },
  });
}

function isPrivateKeyPem(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

const serviceAccount = z.looseObject({
  type: z.literal('service_account'),
  project_id: z.string().min(1).max(256),
  private_key_id: z.string().min(1).max(256),
  private_key: z.string().min(1).max(16_384).refine(isPrivateKeyPem, { message: 'Expected a PEM private key' }),
  client_email: z.email().max(320),
  client_id: z.string().min(1).max(256),
  token_uri: z.url({ protocol: /^https?$/ }).max(2048).optional(),
});

/** projectId, clientEmail and privateKeyId follow the service account they come from. */
function extractServiceAccount(values: Values): void {
  const account = values.serviceAccountJSON as z.infer<typeof serviceAccount> | undefined;
  if (!account) return;
  Object.assign(values, { projectId: account.project_id, clientEmail: account.client_email, privateKeyId: account.private_key_id });
}

export const pushCloudMessaging = defineResource({
  slug: 'push_cloud_messaging',
  table: 'push_cloud_messaging',
  description: "The push integration: a service-account credential of the push provider's v1 API.",
  access: ADMIN,
  fields: {
    name: name(),
    description: description(),
    status: field.status({ required: true, default: 'draft' }),
    serviceAccountJSON: field.json(serviceAccount, {
      required: true,
      sealed: true,
      revealOnce: true,
      description: 'The complete service-account JSON (type, project_id, private_key_id, private_key, client_email, client_id); encrypted, returned on create only.',
    }),
    projectId: field.string({ readOnly: true }),
    clientEmail: field.string({ readOnly: true }),
    privateKeyId: field.string({ readOnly: true }),
  },
  async beforeCreate({ values }) {
    extractServiceAccount(values);
  },
  async beforeUpdate({ values }) {
    extractServiceAccount(values);
  },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'push_cloud_messaging'),
});

const cloudCredentials = () => ({
  name: name(),
  description: description(),
  status: field.status({ required: true, default: 'draft' }),
  accessKeyId: field.string({ required: true, min: 1, max: 128, pattern: /^[A-Za-z0-9]+$/, patternMessage: 'Letters and digits only' }),
  secretAccessKey: field.string({
    required: true,
    min: 1,
    max: 256,
    sealed: true,
    revealOnce: true,
    description: 'Encrypted; returned on create only.',
  }),
  region: field.string({ required: true, max: 32, pattern: /^[a-z]{2}(-[a-z]+)+-\d+$/, patternMessage: 'Expected a cloud region such as us-east-1' }),
});

export const cloudSms = defineResource({
  slug: 'cloud_sms',
  table: 'cloud_sms',
  description: 'The SMS integration: cloud credentials, region and the sender id shown to recipients.',
  access: ADMIN,
  fields: {
    ...cloudCredentials(),
    senderId: field.string({
      required: true,
      max: 15,
      pattern: /^(?:(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,11}|\+?\d{3,14})$/,
      patternMessage: 'Expected an alphanumeric sender id (1-11 letters or digits, at least one letter) or a phone number',
    }),
  },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'cloud_sms'),
});

export const cloudChat = defineResource({
  slug: 'cloud_chat',
  table: 'cloud_chat',
  description: 'The chat-message integration: cloud credentials, region and the messaging business account and phone number.',
  access: ADMIN,
  fields: {
    ...cloudCredentials(),
    messagingBusinessAccountId: field.string({ required: true, min: 1, max: 256 }),
    messagingPhoneNumberId: field.string({ required: true, min: 1, max: 256 }),
  },
  beforeDelete: ({ trx, row }) => deleteRulesUsing(trx, row, 'cloud_chat'),
});
