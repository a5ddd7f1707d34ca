import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Config } from '../../config.js';
import { awsAccepted, awsFailure, boundedCall, SEND_TIMEOUT_MS, type Sent, SendFailure, sentAs } from './errors.js';

export interface EmailMessage {
  from: { name: string; address: string };
  replyTo: string | undefined;
  to: string;
  subject: string;
  html: string;
  /** The plain-text alternative: the message is multipart/alternative. */
  text: string;
  unsubscribeUrl: string;
  /**
   * The Message-ID, one per notification log: a send repeated after a crash (its outcome not
   * recorded) carries the same one, so mail clients and providers see it as the same message.
   */
  messageId: string;
  /**
   * The SMTP envelope sender (bounces go there): an address at a custom domain's MAIL FROM subdomain,
   * whose published SPF record then covers the mail; absent, the From address.
   */
  envelopeFrom?: string;
  /** Custom sending domains sign with their own key; the shared domain and SES (which signs itself) do not. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
}

export interface EmailTransport {
  /** Sends one message; resolves to the provider's message id (or, when its answer could not be read, a note saying so). */
  send(message: EmailMessage): Promise<Sent>;
}

function mailOptions(m: EmailMessage): SendMailOptions {
  return {
    from: m.from,
    replyTo: m.replyTo,
    to: m.to,
    subject: m.subject,
    messageId: m.messageId,
    text: m.text,
    html: m.html,
    // RFC 8058 one-click unsubscribe: mail clients POST to the link, which the /u route accepts.
    headers: { 'List-Unsubscribe': `<${m.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    dkim: m.dkim,
    envelope: m.envelopeFrom ? { from: m.envelopeFrom, to: m.to } : undefined,
  };
}

/** Renders the complete MIME message (signed when the message has a DKIM key) without sending it. */
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
async function compose(m: EmailMessage): Promise<{ raw: Buffer; messageId: string }> {
  const { message, messageId } = await composer.sendMail(mailOptions(m));
  // `buffer: true` has the composer answer a Buffer, not a stream.
  if (!Buffer.isBuffer(message)) throw new Error('The MIME composer answered a stream.');
  return { raw: message, messageId };
}

/** Errors that carry no SMTP reply but would recur: refused or missing credentials, a malformed envelope, bad settings. */
const PERMANENT_CODES = new Set(['EAUTH', 'ENOAUTH', 'EENVELOPE', 'ECONFIG']);

/**
 * SMTP errors: nodemailer classifies a server reply (5xx other than 503 is permanent, 4xx is not);
 * without a reply the error code decides, and connection trouble is retried.
 */
function smtpFailure(err: unknown): SendFailure {
  const e = err instanceof Error ? err : new Error(String(err));
  // Nodemailer's errors add these to an Error (NodemailerError).
  const code = 'code' in e && typeof e.code === 'string' ? e.code : undefined;
  const response = 'response' in e && typeof e.response === 'string' ? e.response : undefined;
  const permanent = 'permanent' in e && typeof e.permanent === 'boolean' ? e.permanent : PERMANENT_CODES.has(code ?? '');
  const reply = response && !e.message.includes(response) ? ` (${response})` : '';
  return new SendFailure(`SMTP ${code ?? 'error'}: ${e.message}${reply}`, permanent);
}

function smtpTransport(config: Config, timeoutMs: number): EmailTransport {
  if (!config.smtpUrl) {
    return { send: async () => Promise.reject(new SendFailure('LOYALTY_SMTP_URL is not set; no SMTP server to send through.', true)) };
  }
  // Time-outs bound a send so that its lease never runs out while it is still waiting; the URL's own parameters win.
  const smtp = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: timeoutMs,
  });
  return {
    async send(m) {
      try {
        // The socket time-out counts silence only: a server that trickles its replies would keep a
        // send going past the time its failure was recorded and retried, so the send is cut then.
        const { messageId } = await smtp.sendMail({ ...mailOptions(m), signal: AbortSignal.timeout(timeoutMs) });
        return { messageId, note: null };
      } catch (err) {
        if (err instanceof Error && 'code' in err && err.code === 'EABORT')
          throw new SendFailure(`The SMTP server did not finish the send within ${timeoutMs / 1000} s.`, false);
        throw smtpFailure(err);
      }
    },
  };
}

/**
 * The SES v2 client: endpoint from LOYALTY_SES_ENDPOINT, credentials and region from the AWS
 * environment. The SDK is loaded when SES is first used, not at start.
 */
export async function createSesClient(config: Config): Promise<SESv2Client> {
  const { SESv2Client } = await import('@aws-sdk/client-sesv2');
  return new SESv2Client({
    endpoint: config.sesEndpoint,
    // The sender retries on its own schedule; the SDK's in-process retries would hold the lease.
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 10_000, requestTimeout: SEND_TIMEOUT_MS, throwOnRequestTimeout: true },
  });
}

/** SES v2 SendEmail with the raw MIME message, so headers are the same as over SMTP. */
function sesTransport(config: Config): EmailTransport {
  let ses: Promise<SESv2Client> | undefined;
  return {
    async send(m) {
      const { raw } = await compose(m);
      const [client, { SendEmailCommand }] = await Promise.all([(ses ??= createSesClient(config)), import('@aws-sdk/client-sesv2')]);
      try {
        const out = await client.send(
          new SendEmailCommand({
            FromEmailAddress: m.from.address,
            Destination: { ToAddresses: [m.to] },
            ReplyToAddresses: m.replyTo ? [m.replyTo] : undefined,
            Content: { Raw: { Data: raw } },
          }),
          boundedCall(),
        );
        return sentAs(out.MessageId, 'SES SendEmail');
      } catch (err) {
        const accepted = awsAccepted(err, 'SES SendEmail');
        if (accepted) return accepted;
        throw awsFailure(err);
      }
    },
  };
}

/** `.eml` files in `<dataDir>/outbox/` (the embedded default): what would have been sent, for a person or a test to open. */
function fileTransport(config: Config): EmailTransport {
  const dir = join(config.dataDir, 'outbox');
  return {
    async send(m) {
      const { raw, messageId } = await compose(m);
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
      await writeFile(join(dir, name), raw);
      return { messageId, note: null };
    },
  };
}

/** `timeoutMs`: how long an SMTP send may take in all (tests shorten it). */
export function createEmailTransport(config: Config, { timeoutMs = SEND_TIMEOUT_MS }: { timeoutMs?: number } = {}): EmailTransport {
  if (config.emailTransport === 'smtp') return smtpTransport(config, timeoutMs);
  if (config.emailTransport === 'ses') return sesTransport(config);
  return fileTransport(config);
}
