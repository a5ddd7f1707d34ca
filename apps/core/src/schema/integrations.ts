import { createPrivateKey } from 'node:crypto';
import { z } from 'zod';
import { EMAIL } from '../formats.js';
import { field } from '../records/fields.js';
import type { RowOfFields } from '../records/row-types.js';
import { description, name } from './common.js';

// Both cases spelled out, not an `i` flag: the OpenAPI document publishes a pattern without its flags.
const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+(?:[a-zA-Z]{2,63}|[xX][nN]--[a-zA-Z0-9-]{1,59})$`);
const SUBDOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

export interface DnsRecord {
  type: 'TXT' | 'MX' | 'CNAME';
  name: string;
  value: string;
  priority?: number;
}

/** A DNS record as the service_email resource shows it. */
export const dnsRecord = z.object({
  type: z.enum(['TXT', 'MX', 'CNAME']),
  name: z.string(),
  value: z.string(),
  priority: z.number().int().optional(),
});

export const serviceEmailFields = {
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
    description:
      'Custom MAIL FROM subdomain of domain (e.g. "mail"); required when useGamopandaDomain is false; not editable after creation.',
  }),
  senderEmailAddress: field.email({ description: 'From address; required for a custom domain, and at that domain.' }),
  isVerified: field.boolean({ readOnly: true, description: 'True when every DNS check passes.' }),
  isDomainVerified: field.boolean({ readOnly: true }),
  isDkimVerified: field.boolean({ readOnly: true }),
  isMailFromVerified: field.boolean({ readOnly: true }),
  dnsRecords: field.json(z.array(dnsRecord), { readOnly: true, description: 'DNS records to publish for a custom domain.' }),
};

function isPrivateKeyPem(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

export const serviceAccount = z.looseObject({
  type: z.literal('service_account'),
  project_id: z.string().min(1).max(256),
  private_key_id: z.string().min(1).max(256),
  private_key: z
    .string()
    .min(1)
    .max(16_384)
    .refine(isPrivateKeyPem, { message: 'Expected a PEM private key' })
    .meta({ pattern: '-----BEGIN [A-Z ]*PRIVATE KEY-----', description: 'A PEM private key (PKCS#8 or PKCS#1) that parses.' }),
  client_email: z.email({ pattern: EMAIL }).max(320),
  client_id: z.string().min(1).max(256),
  token_uri: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
});

export const pushCloudMessagingFields = {
  name: name(),
  description: description(),
  status: field.status({ required: true, default: 'draft' }),
  serviceAccountJSON: field.json(serviceAccount, {
    required: true,
    sealed: true,
    revealOnce: true,
    description:
      'The complete service-account JSON (type, project_id, private_key_id, private_key, client_email, client_id); encrypted, returned on create only.',
  }),
  projectId: field.string({ readOnly: true }),
  clientEmail: field.string({ readOnly: true }),
  privateKeyId: field.string({ readOnly: true }),
};

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
  region: field.string({
    required: true,
    max: 32,
    pattern: /^[a-z]{2}(-[a-z]+)+-\d+$/,
    patternMessage: 'Expected a cloud region such as us-east-1',
  }),
});

export const cloudSmsFields = {
  ...cloudCredentials(),
  senderId: field.string({
    required: true,
    max: 15,
    pattern: /^(?:(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,11}|\+?\d{3,14})$/,
    patternMessage: 'Expected an alphanumeric sender id (1-11 letters or digits, at least one letter) or a phone number',
  }),
};

export const cloudChatFields = {
  ...cloudCredentials(),
  messagingBusinessAccountId: field.string({ required: true, min: 1, max: 256 }),
  messagingPhoneNumberId: field.string({ required: true, min: 1, max: 256 }),
};

/** A custom domain's integration also keeps its own DKIM selector and sealed key. */
export type ServiceEmailRow = RowOfFields<typeof serviceEmailFields> & {
  dkim_selector: string | null;
  dkim_private_key_enc: string | null;
};
export type PushCloudMessagingRow = RowOfFields<typeof pushCloudMessagingFields>;
export type CloudSmsRow = RowOfFields<typeof cloudSmsFields>;
export type CloudChatRow = RowOfFields<typeof cloudChatFields>;
