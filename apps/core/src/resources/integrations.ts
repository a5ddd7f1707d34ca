import { createPrivateKey, generateKeyPair, randomBytes } from 'node:crypto';
import { CreateEmailIdentityCommand, GetEmailIdentityCommand } from '@aws-sdk/client-sesv2';
import { promisify } from 'node:util';
import type { Resolver } from 'node:dns/promises';
import { z } from 'zod';
import { SecretBox } from '../auth/crypto.js';
import type { Config } from '../config.js';
import { ApiError, conflict, type ErrorDetail } from '../errors.js';
import { field } from '../records/fields.js';
import { defineResource, type Resource, type Row, type Values } from '../records/resource.js';
import { createSesClient } from '../notifications/transports/email.js';
import { createResolver } from '../webhooks/addresses.js';
import { ADMIN, description, name } from './common.js';
import { deleteRulesUsing } from './notifications.js';

const generateKeyPairAsync = promisify(generateKeyPair);

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`, 'i');
const SUBDOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`, 'i');

export interface DnsRecord {
  type: 'TXT' | 'MX' | 'CNAME';
  name: string;
  value: string;
  priority?: number;
}

const dnsRecord = z.object({
  type: z.enum(['TXT', 'MX', 'CNAME']),
  name: z.string(),
  value: z.string(),
  priority: z.number().int().optional(),
});

const VERIFICATION_PREFIX = '_loyalty-verification.';

/** The email provider refused or failed: a 502 that names it, never its credentials. */
function providerError(err: unknown): ApiError {
  const reason = err instanceof Error ? `${err.name}: ${err.message}`.replace(/(AKIA|ASIA)[A-Z0-9]{12,}/g, '[redacted]') : 'unknown error';
  return new ApiError(502, 'provider_error', `The email provider could not set up the domain (${reason}).`);
}

/**
 * The records a custom sending domain publishes: ownership token, DKIM (our own key as a TXT, or
 * the provider's CNAMEs when SES signs), MAIL FROM MX and SPF.
 */
export function customDomainRecords(input: {
  domain: string;
  mailFrom: string;
  dkim: DnsRecord[];
  token: string;
  mailFromMx: string;
}): DnsRecord[] {
  const mailFromDomain = `${input.mailFrom}.${input.domain}`;
  return [
    { type: 'TXT', name: `${VERIFICATION_PREFIX}${input.domain}`, value: input.token },
    ...input.dkim,
    { type: 'MX', name: mailFromDomain, value: input.mailFromMx, priority: 10 },
    { type: 'TXT', name: mailFromDomain, value: 'v=spf1 mx ~all' },
  ];
}

const squash = (s: string) => s.replace(/\s+/g, '');
const host = (s: string) => s.replace(/\.$/, '').toLowerCase();

/** Looks the published records up and reports each check (CONTRACT §11 verify_dns). */
export async function checkDnsRecords(records: DnsRecord[], resolver: Resolver) {
  const txt = (name: string) => resolver.resolveTxt(name).then((rs) => rs.map((chunks) => chunks.join('')), () => [] as string[]);
  const hasTxt = async (r: DnsRecord | undefined) => !!r && (await txt(r.name)).some((v) => squash(v) === squash(r.value));
  const verification = records.find((r) => r.type === 'TXT' && r.name.startsWith(VERIFICATION_PREFIX));
  const dkimRecords = records.filter((r) => r.name.includes('._domainkey.'));
  const cnameOk = async (r: DnsRecord) => (await resolver.resolveCname(r.name).catch(() => [] as string[])).some((v) => host(v) === host(r.value));
  const dkimOk = async () =>
    dkimRecords.length > 0 && (await Promise.all(dkimRecords.map((r) => (r.type === 'CNAME' ? cnameOk(r) : hasTxt(r))))).every(Boolean);
  const mx = records.find((r) => r.type === 'MX');
  const spf = records.find((r) => r.type === 'TXT' && r.value.startsWith('v=spf1'));
  const mxFound = async () =>
    !!mx && (await resolver.resolveMx(mx.name).catch(() => [])).some((m) => host(m.exchange) === host(mx.value));
  const [isDomainVerified, isDkimVerified, mxOk, spfOk] = await Promise.all([hasTxt(verification), dkimOk(), mxFound(), hasTxt(spf)]);
  const isMailFromVerified = mxOk && spfOk;
  return { isDomainVerified, isDkimVerified, isMailFromVerified, isVerified: isDomainVerified && isDkimVerified && isMailFromVerified };
}

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
  // Embedded mode resolves the master key from the data dir after boot begins; seal only when asked.
  let box: SecretBox | undefined;
  const sealer = () => (box ??= new SecretBox(config.masterKey!));
  const resolver = createResolver(config.dnsServers);
  // Bounces to the MAIL FROM domain go where the mail leaves from: the SMTP relay, else this service's host.
  const mailFromMx = new URL(config.smtpUrl ?? config.publicUrl).hostname;

  /** Our own DKIM key: the private half sealed for signing, the public half published as TXT. */
  async function ownDkim(domain: string, columns: Row): Promise<DnsRecord[]> {
    const selector = `lp${randomBytes(4).toString('hex')}`;
    const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    columns.dkim_selector = selector;
    columns.dkim_private_key_enc = sealer().seal(privateKey);
    return [{ type: 'TXT', name: `${selector}._domainkey.${domain}`, value: `v=DKIM1; k=rsa; p=${publicKey.toString('base64')}` }];
  }

  /** SES signs for the domain: its CreateEmailIdentity answers the DKIM tokens to publish as CNAMEs. */
  async function sesDkim(domain: string): Promise<DnsRecord[]> {
    const ses = createSesClient(config);
    let tokens: string[] | undefined;
    try {
      tokens = (await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }))).DkimAttributes?.Tokens;
    } catch (err) {
      if ((err as { name?: string }).name !== 'AlreadyExistsException') throw providerError(err);
      tokens = (await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain })).catch((e: unknown) => { throw providerError(e); })).DkimAttributes?.Tokens;
    }
    if (!tokens?.length) throw providerError(new Error('SES answered without DKIM tokens'));
    return tokens.map((t) => ({ type: 'CNAME' as const, name: `${t}._domainkey.${domain}`, value: `${t}.dkim.amazonses.com` }));
  }

  async function setUpCustomDomain(values: Values, columns: Row): Promise<void> {
    const domain = (values.domain as string).toLowerCase();
    const mailFrom = (values.mailFrom as string).toLowerCase();
    const dkim = config.emailTransport === 'ses' ? await sesDkim(domain) : await ownDkim(domain, columns);
    Object.assign(values, {
      domain,
      mailFrom,
      dnsRecords: customDomainRecords({ domain, mailFrom, dkim, token: randomBytes(16).toString('hex'), mailFromMx }),
    });
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
          const flags = await checkDnsRecords(row.dns_records as DnsRecord[], resolver);
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
