import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { Resolver } from 'node:dns/promises';
import { SecretBox } from '../auth/crypto.js';
import type { Config } from '../config.js';
import type { Row } from '../db/rows.js';
import { ApiError } from '../errors.js';
import type { DnsRecord } from '../schema/integrations.js';
import { createResolver } from '../webhooks/addresses.js';
import { createSesClient } from './transports/email.js';

const generateKeyPairAsync = promisify(generateKeyPair);

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
function customDomainRecords(input: {
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
async function checkDnsRecords(records: DnsRecord[], resolver: Resolver) {
  const txt = (name: string) =>
    resolver.resolveTxt(name).then(
      (rs) => rs.map((chunks) => chunks.join('')),
      (): string[] => [],
    );
  const hasTxt = async (r: DnsRecord | undefined) => !!r && (await txt(r.name)).some((v) => squash(v) === squash(r.value));
  const verification = records.find((r) => r.type === 'TXT' && r.name.startsWith(VERIFICATION_PREFIX));
  const dkimRecords = records.filter((r) => r.name.includes('._domainkey.'));
  const cnameOk = async (r: DnsRecord) =>
    (await resolver.resolveCname(r.name).catch((): string[] => [])).some((v) => host(v) === host(r.value));
  const dkimOk = async () =>
    dkimRecords.length > 0 && (await Promise.all(dkimRecords.map((r) => (r.type === 'CNAME' ? cnameOk(r) : hasTxt(r))))).every(Boolean);
  const mx = records.find((r) => r.type === 'MX');
  const spf = records.find((r) => r.type === 'TXT' && r.value.startsWith('v=spf1'));
  const mxFound = async () => !!mx && (await resolver.resolveMx(mx.name).catch(() => [])).some((m) => host(m.exchange) === host(mx.value));
  const [isDomainVerified, isDkimVerified, mxOk, spfOk] = await Promise.all([hasTxt(verification), dkimOk(), mxFound(), hasTxt(spf)]);
  const isMailFromVerified = mxOk && spfOk;
  return { isDomainVerified, isDkimVerified, isMailFromVerified, isVerified: isDomainVerified && isDkimVerified && isMailFromVerified };
}

/**
 * Custom sending domains of the email integration: the records to publish (with a DKIM key of our
 * own, sealed with the master key, or the provider's when SES signs), and their DNS checks.
 */
export function sendingDomains(config: Config) {
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
    const [ses, { CreateEmailIdentityCommand, GetEmailIdentityCommand }] = await Promise.all([
      createSesClient(config),
      import('@aws-sdk/client-sesv2'),
    ]);
    let tokens: string[] | undefined;
    try {
      tokens = (await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: domain }))).DkimAttributes?.Tokens;
    } catch (err) {
      if (!(err instanceof Error && err.name === 'AlreadyExistsException')) throw providerError(err);
      tokens = (
        await ses.send(new GetEmailIdentityCommand({ EmailIdentity: domain })).catch((e: unknown) => {
          throw providerError(e);
        })
      ).DkimAttributes?.Tokens;
    }
    if (!tokens?.length) throw providerError(new Error('SES answered without DKIM tokens'));
    return tokens.map((t) => ({ type: 'CNAME' as const, name: `${t}._domainkey.${domain}`, value: `${t}.dkim.amazonses.com` }));
  }

  return {
    /** The records to publish for `domain`; our own DKIM key's selector and sealed private half go to `columns`. */
    async setUp(domain: string, mailFrom: string, columns: Row): Promise<DnsRecord[]> {
      const dkim = config.emailTransport === 'ses' ? await sesDkim(domain) : await ownDkim(domain, columns);
      return customDomainRecords({ domain, mailFrom, dkim, token: randomBytes(16).toString('hex'), mailFromMx });
    },
    verify: (records: DnsRecord[]) => checkDnsRecords(records, resolver),
  };
}
