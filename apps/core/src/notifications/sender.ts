import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { SecretBox } from '../auth/crypto.js';
import type { Config } from '../config.js';
import type { CloudChatRow, CloudSmsRow, PushCloudMessagingRow, ServiceEmailRow } from '../schema/integrations.js';
import type { AccountUserRow } from '../schema/members.js';
import type { EventLogRow } from '../schema/progress.js';
import {
  CHANNEL_OF_PROVIDER,
  type ChatMessageTemplateRow,
  type EmailTemplateRow,
  type NotificationLogRow,
  type NotificationRow,
  type PushNotificationTemplateRow,
  type SmsTemplateRow,
  TEMPLATE_OF_PROVIDER,
} from '../schema/notifications.js';
import { type AccountColumns, type AccountInfo, accountInfo } from '../auth/authenticate.js';
import { FairLanes, outlastsLease } from '../concurrency.js';
import { fairPick } from '../db/fair-pick.js';
import { count } from '../observability/metrics.js';
import { resolveText } from '../records/context.js';
import { TemplateError } from '../templates/render.js';
import { buildContext, chatLanguage, loadPointsContext, messageTexts, pushTexts, type Rendering, renderEmail } from './render.js';
import { createEmailTransport, type EmailTransport } from './transports/email.js';
import { ChatTransport, type CloudCredentials, SmsTransport } from './transports/aws.js';
import { redact, SEND_TIMEOUT_MS, type Sent, SendFailure, SkipSend } from './transports/errors.js';
import { parseServiceAccount, PushTransport } from './transports/push.js';
import { createResolver } from '../webhooks/addresses.js';
import { unsubscribeUrl } from './unsubscribe.js';

/** Waits before each retry: 3 retries after the first attempt, then the log is `failed`. */
const BACKOFF_MS = [30_000, 120_000, 600_000];
/** The longest a provider's `Retry-After` may put a retry off: a stray "a week" must not park a message. */
const RETRY_AFTER_MAX_MS = 60 * 60_000;
/**
 * How long a claimed row stays with its worker. Longer than the slowest send (an OAuth token and a
 * provider call, each bounded by SEND_TIMEOUT_MS), so a live worker never loses a row mid-send; a
 * crashed worker's rows come back to the others when it passes.
 */
const LEASE_MS = 5 * 60_000;

/** What sending needs of the service: its database, secrets, settings and log. */
export interface SenderDeps {
  db: Knex;
  box: SecretBox;
  config: Config;
  logger: Logger;
}

interface Transports {
  email: EmailTransport;
  push: PushTransport;
  sms: SmsTransport;
  chat: ChatTransport;
}
/** Transports hold connections and token caches: one set per service instance. */
const transportsOf = new WeakMap<SenderDeps, Transports>();
function transports(s: SenderDeps): Transports {
  let t = transportsOf.get(s);
  if (!t) {
    t = {
      email: createEmailTransport(s.config),
      push: new PushTransport(s.config.pushApiUrl, {
        allowPrivate: s.config.webhookAllowPrivate,
        resolver: createResolver(s.config.dnsServers),
      }),
      sms: new SmsTransport(s.config.smsEndpoint),
      chat: new ChatTransport(s.config.chatEndpoint),
    };
    transportsOf.set(s, t);
  }
  return t;
}

type Outcome =
  | { status: 'sent'; providerMessageId: string | null; note: string | null }
  | { status: 'skipped'; reason: string }
  | { status: 'failure'; error: string; permanent: boolean; retryAfterMs?: number }
  /** The service's own trouble (its database, a secret it cannot open), not the provider's: no attempt is spent. */
  | { status: 'not_prepared' };

function skip(reason: string): never {
  throw new SkipSend(reason);
}

const WAITING = `notification_log_status = 'pending'`;
const DUE = 'next_attempt_at <= ? and (lease_until is null or lease_until <= ?)';
/**
 * Claims each account's oldest due rows, up to its room, oldest first across accounts: pending,
 * due, and not leased (or leased by a worker that has since died). SKIP LOCKED lets concurrent
 * workers claim disjoint rows without waiting on each other.
 */
const CLAIM = `
  ${fairPick('notification_log', { waiting: WAITING, due: DUE, dueColumn: 'next_attempt_at' })}
  update notification_log set lease_until = ?
   where (account_id, id) in (
     select account_id, id from notification_log
      where (account_id, id) in (select account_id, id from picked) and ${WAITING} and ${DUE}
        for update skip locked)
  returning *`;

/** A rule's integration and template as loaded, by provider: either may be gone since. */
type Loaded =
  | { provider: 'service_email'; integration?: ServiceEmailRow; template?: EmailTemplateRow }
  | { provider: 'push_cloud_messaging'; integration?: PushCloudMessagingRow; template?: PushNotificationTemplateRow }
  | { provider: 'cloud_sms'; integration?: CloudSmsRow; template?: SmsTemplateRow }
  | { provider: 'cloud_chat'; integration?: CloudChatRow; template?: ChatMessageTemplateRow };
/** A rule's live integration and template. */
type Sending = Required<Loaded>;

async function loadSending(db: Knex, accountId: string, rule: NotificationRow): Promise<Loaded> {
  const provider = rule.integration_provider;
  // One query after the other, here and in load: a worker shares the pool with the API.
  const pair = async <I, T>() =>
    [
      await db(provider).where({ account_id: accountId, id: rule.integration_id }).first<I | undefined>(),
      await db(TEMPLATE_OF_PROVIDER[provider]).where({ account_id: accountId, id: rule.template_id }).first<T | undefined>(),
    ] as const;
  switch (provider) {
    case 'service_email': {
      const [integration, template] = await pair<ServiceEmailRow, EmailTemplateRow>();
      return { provider, integration, template };
    }
    case 'push_cloud_messaging': {
      const [integration, template] = await pair<PushCloudMessagingRow, PushNotificationTemplateRow>();
      return { provider, integration, template };
    }
    case 'cloud_sms': {
      const [integration, template] = await pair<CloudSmsRow, SmsTemplateRow>();
      return { provider, integration, template };
    }
    case 'cloud_chat': {
      const [integration, template] = await pair<CloudChatRow, ChatMessageTemplateRow>();
      return { provider, integration, template };
    }
  }
}

function liveTemplate<T extends { status: string }>(template: T | undefined): T {
  if (!template) skip('The template no longer exists.');
  if (template.status !== 'live') skip(`The template is ${template.status}.`);
  return template;
}

function liveIntegration<I extends { status: string }>(integration: I | undefined): I {
  if (!integration) skip('The integration no longer exists.');
  if (integration.status !== 'live') skip(`The integration is ${integration.status}.`);
  return integration;
}

/** The template is checked before the integration, each for being there and live. */
function ready(loaded: Loaded): Sending {
  switch (loaded.provider) {
    case 'service_email': {
      const template = liveTemplate(loaded.template);
      return { provider: loaded.provider, template, integration: liveIntegration(loaded.integration) };
    }
    case 'push_cloud_messaging': {
      const template = liveTemplate(loaded.template);
      return { provider: loaded.provider, template, integration: liveIntegration(loaded.integration) };
    }
    case 'cloud_sms': {
      const template = liveTemplate(loaded.template);
      return { provider: loaded.provider, template, integration: liveIntegration(loaded.integration) };
    }
    case 'cloud_chat': {
      const template = liveTemplate(loaded.template);
      return { provider: loaded.provider, template, integration: liveIntegration(loaded.integration) };
    }
  }
}

/** Everything a send needs, loaded at send time: a rule, template or integration paused since the event is skipped. */
async function load(db: Knex, row: NotificationLogRow) {
  const accountId = row.account_id;
  const rule = await db<NotificationRow>('notification').where({ account_id: accountId, id: row.notification_id }).first();
  if (!rule) skip('The notification rule no longer exists.');
  if (rule.status !== 'live') skip(`The notification rule is ${rule.status}.`);
  const provider = rule.integration_provider;
  if (CHANNEL_OF_PROVIDER[provider] !== row.channel)
    skip(`The notification rule now sends on ${CHANNEL_OF_PROVIDER[provider]}, not ${row.channel}.`);
  const event = await db<EventLogRow>('event_log').where({ account_id: accountId, id: row.event_log_id }).first();
  const member = row.owned_by_id
    ? await db<AccountUserRow>('account_user').where({ account_id: accountId, id: row.owned_by_id }).first()
    : undefined;
  const loaded = await loadSending(db, accountId, rule);
  const tenancy = await db('account')
    .join('organization', 'organization.id', 'account.organization_id')
    .where('account.id', accountId)
    .first<(AccountColumns & { organization_name: string }) | undefined>([
      'account.id as account_id',
      'account.organization_id',
      'account.name as account_name',
      'account.timezone as account_timezone',
      'account.default_language_code',
      'organization.name as organization_name',
    ]);
  if (!event) skip('The event no longer exists.');
  if (!member) skip('The member no longer exists.');
  if (member.unsubscribed_channels.some((c) => c === row.channel)) skip(`The member has unsubscribed from ${row.channel} messages.`);
  const points = await loadPointsContext(db, accountId);
  return { sending: ready(loaded), event, member, tenancy: tenancy!, points };
}

/**
 * §7's fall-back ends at en: a template with none of the member's, the account's or en's text in a
 * field would go out empty (an e-mail without subject or body), so such a send is skipped, saying why.
 */
function needTexts(rendering: Rendering, account: AccountInfo, texts: Record<string, unknown>): void {
  const tried = [...new Set([rendering.language, account.defaultLanguageCode, 'en'])].join(', ');
  for (const [field, map] of Object.entries(texts))
    if (!resolveText(map, { languageCode: rendering.language, account }))
      skip(`The template has no ${field} in ${tried} (the member's language, then the account's, then en).`);
}

/** A credential's version for the transports' client caches: a changed secret gets a new client. */
const clientKey = (integration: { id: string; updated_at: Date }) => `${integration.id}:${integration.updated_at.getTime()}`;

/** Renders and sends one notification; `secrets` collects what was opened, so that no error message carries it. */
async function attempt(s: SenderDeps, row: NotificationLogRow, secrets: string[]): Promise<Sent> {
  const { sending, event, member, tenancy, points } = await load(s.db, row);
  const account = accountInfo(tenancy);
  const link = unsubscribeUrl(s.config.publicUrl, s.config.masterKey!, account.id, member.id, CHANNEL_OF_PROVIDER[sending.provider]);
  const rendering: Rendering = buildContext({
    organization: { id: account.organizationId, name: tenancy.organization_name },
    account,
    member,
    event,
    unsubscribeUrl: link,
    points,
  });
  const texts = messageTexts(rendering, account);
  const t = transports(s);

  if (sending.provider === 'service_email') {
    const { integration, template } = sending;
    const to = member.email;
    if (!to) skip('The member has no email address.');
    needTexts(rendering, account, { subject: template.subject, htmlContent: template.html_content });
    const { subject, html, text: plain } = await renderEmail(s.db, template, rendering, account);
    const shared = integration.use_gamopanda_domain;
    // Until its DNS records prove the domain the merchant's, mail from it would be mail in another's name.
    if (!shared && !integration.is_verified)
      skip(`The sending domain ${integration.domain} is not verified: publish its DNS records, then verify_dns.`);
    const privateKey = !shared && integration.dkim_private_key_enc ? s.box.open(integration.dkim_private_key_enc) : undefined;
    if (privateKey) secrets.push(privateKey);
    const from = shared ? `no-reply@${s.config.emailSharedDomain}` : integration.sender_email_address!;
    return t.email.send({
      from: { name: account.name, address: from },
      messageId: `<${row.id}@${from.slice(from.lastIndexOf('@') + 1)}>`,
      replyTo: integration.reply_to_email_address ?? undefined,
      to,
      subject,
      html,
      text: plain,
      unsubscribeUrl: link,
      envelopeFrom: !shared && integration.mail_from ? `bounces@${integration.mail_from}.${integration.domain}` : undefined,
      dkim: privateKey ? { domainName: integration.domain!, keySelector: integration.dkim_selector!, privateKey } : undefined,
    });
  }

  if (sending.provider === 'push_cloud_messaging') {
    const { integration, template } = sending;
    const tokens = member.push_device_tokens;
    if (!tokens.length) skip('The member has no push device tokens.');
    needTexts(rendering, account, { title: template.title, body: template.body });
    const serviceAccount = parseServiceAccount(s.box.open(integration.service_account_json_enc));
    secrets.push(serviceAccount.private_key, ...tokens);
    return t.push.send(clientKey(integration), serviceAccount, tokens, {
      ...pushTexts(texts, template),
      imageUrl: template.image_url ?? null,
    });
  }

  const phone = member.phone_number;
  if (!phone) skip('The member has no phone number.');
  const credentials: CloudCredentials = {
    accessKeyId: sending.integration.access_key_id,
    secretAccessKey: s.box.open(sending.integration.secret_access_key_enc),
    region: sending.integration.region,
  };
  secrets.push(credentials.secretAccessKey);
  if (sending.provider === 'cloud_sms') {
    const { integration, template } = sending;
    needTexts(rendering, account, { body: template.body });
    return t.sms.send(clientKey(integration), credentials, {
      phoneNumber: phone,
      senderId: integration.sender_id,
      body: texts.text(template.body, 'body'),
    });
  }
  const { integration, template } = sending;
  const chat = messageTexts(rendering, account, chatLanguage(template.template_language_code));
  return t.chat.send(clientKey(integration), credentials, {
    phoneNumberId: integration.messaging_phone_number_id,
    to: phone,
    templateName: template.template_name,
    languageCode: template.template_language_code,
    bodyParameters: template.body_parameters.map((p, i) => chat.template(p, `bodyParameters[${i}]`)),
  });
}

async function deliver(s: SenderDeps, row: NotificationLogRow): Promise<Outcome> {
  const secrets: string[] = [];
  const smtpPassword = s.config.smtpUrl ? new URL(s.config.smtpUrl).password : '';
  const safe = (message: string) => redact(message, [smtpPassword, decodeURIComponent(smtpPassword), ...secrets]);
  try {
    const sent = await attempt(s, row, secrets);
    return { status: 'sent', providerMessageId: sent.messageId, note: sent.note && safe(sent.note) };
  } catch (err) {
    if (err instanceof SkipSend) return { status: 'skipped', reason: err.message };
    // A template that cannot render will not render on a retry either.
    if (err instanceof TemplateError)
      return { status: 'failure', error: `Template error${err.field ? ` in ${err.field}` : ''}: ${err.message}`, permanent: true };
    if (err instanceof SendFailure)
      return { status: 'failure', error: safe(err.message), permanent: err.permanent, retryAfterMs: err.retryAfterMs };
    // Not the provider's answer: the operator reads what it was; the merchant's log reads only that it waits.
    s.logger.error({ err: err instanceof Error ? safe(err.message) : String(err), notificationLogId: row.id }, 'notification not prepared');
    return { status: 'not_prepared' };
  }
}

const NOT_PREPARED = 'The service could not prepare the message (its own trouble, not the provider’s); it tries again.';

/** Writes the outcome, only while the row is still this worker's (its lease unchanged). */
async function record(db: Knex, row: NotificationLogRow, outcome: Outcome, now: Date): Promise<void> {
  const attempts = row.attempt_count + 1;
  let patch: Partial<NotificationLogRow>;
  if (outcome.status === 'sent') {
    patch = {
      notification_log_status: 'sent',
      provider_message_id: outcome.providerMessageId,
      sent_at: now,
      attempt_count: attempts,
      // A provider's answer that could not be read, said where the log has room for it.
      error: outcome.note,
    };
  } else if (outcome.status === 'skipped') {
    patch = { notification_log_status: 'skipped', error: outcome.reason };
  } else if (outcome.status === 'not_prepared') {
    patch = { error: NOT_PREPARED, next_attempt_at: new Date(now.getTime() + BACKOFF_MS[0]!) };
  } else if (outcome.permanent || attempts > BACKOFF_MS.length) {
    patch = { notification_log_status: 'failed', error: outcome.error, attempt_count: attempts };
  } else {
    // A provider that said when to come back (Retry-After) is not asked sooner, nor, past the cap, later.
    const wait = Math.max(BACKOFF_MS[attempts - 1]!, Math.min(outcome.retryAfterMs ?? 0, RETRY_AFTER_MAX_MS));
    patch = { error: outcome.error, attempt_count: attempts, next_attempt_at: new Date(now.getTime() + wait) };
  }
  const recorded = await db('notification_log')
    .where({ account_id: row.account_id, id: row.id, lease_until: row.lease_until })
    .update({ ...patch, lease_until: null, updated_at: db.fn.now() });
  if (recorded) count.notification(row.channel, patch.notification_log_status ?? 'retrying');
}

/** Sends one worker has in flight at most: enough to overlap provider latency, few enough to spare the database pool. */
export const SEND_WIDTH = 16;
/** Sends of one account in flight at most: a provider that hangs for one account holds its share of the lanes, never all of them. */
export const ACCOUNT_SENDS = 4;
/** Rows a claim leases per account at most, in units of its lanes; a worker holds at most this many per lane in all. */
const CLAIMED_PER_LANE = 8;
/** The longest a send may take: an OAuth token and a provider call, each bounded by SEND_TIMEOUT_MS. */
const SEND_MAX_MS = 2 * SEND_TIMEOUT_MS;

/**
 * Sends notifications that are due (CONTRACT §11) and records each as `sent` (a provider's answer
 * that could not be read noted in `error`), `skipped` (with the reason in `error`), or a failure:
 * retried after 30 s, 2 min and 10 min (or the provider's `Retry-After`, when longer, up to an hour),
 * then `failed` with the provider's reason. One send's failure never stops the others, and rows
 * leased to this worker wait in lanes per account (`FairLanes`): one account's slow provider delays
 * only its own sends.
 */
export class NotificationPool {
  private readonly lanes: FairLanes<NotificationLogRow>;
  private readonly handingBack = new Set<Promise<void>>();

  private readonly deadlineMs: number;

  /** `deadlineMs`: how long a send may take in all before it counts as a retryable failure (tests shorten it). */
  constructor(
    private readonly deps: SenderDeps,
    private readonly now: () => Date,
    {
      width = SEND_WIDTH,
      accountCap = ACCOUNT_SENDS,
      deadlineMs = SEND_MAX_MS,
      onFreed,
    }: { width?: number; accountCap?: number; deadlineMs?: number; onFreed?: () => void } = {},
  ) {
    this.deadlineMs = deadlineMs;
    const lanesPerAccount = Math.min(accountCap, width);
    this.lanes = new FairLanes<NotificationLogRow>({
      width,
      accountCap: lanesPerAccount,
      heldMax: CLAIMED_PER_LANE * width,
      accountHeldMax: CLAIMED_PER_LANE * lanesPerAccount,
      // A provider call's time-out, or the whole send's when that is shorter.
      slowMs: Math.min(SEND_TIMEOUT_MS, deadlineMs),
      run: (row) => this.send(row),
      late: (row) => outlastsLease(row.lease_until, this.now(), deadlineMs),
      handBack: (row) => {
        const done: Promise<void> = this.handBack(row).finally(() => this.handingBack.delete(done));
        this.handingBack.add(done);
      },
      onFreed,
    });
  }

  /** Claims due rows as far as there is room (at most `limit`), and starts them; returns how many it took. */
  async claim(limit = Number.POSITIVE_INFINITY): Promise<number> {
    const room = this.lanes.room();
    const take = Math.min(limit, room.free);
    if (take <= 0) return 0;
    const now = this.now();
    const { rows } = await this.deps.db.raw<{ rows: NotificationLogRow[] }>(CLAIM, [
      now,
      now,
      take,
      room.cap,
      JSON.stringify(room.busy),
      take,
      new Date(now.getTime() + LEASE_MS),
      now,
      now,
    ]);
    for (const row of rows) this.lanes.add(row.account_id, row);
    this.lanes.pump();
    return rows.length;
  }

  /** Hands back, unsent, waiting rows whose lease could run out before their send ends. The worker calls it each round. */
  handBackLate(): void {
    this.lanes.handBackLate();
  }

  /** Waits until every row it holds has been sent (or handed back) and its outcome recorded. */
  async settled(): Promise<void> {
    await this.lanes.settled();
    await Promise.all(this.handingBack);
  }

  /** Hands back what still waits for a lane, then settles what is in flight. */
  async drain(): Promise<void> {
    await this.lanes.drain();
    await Promise.all(this.handingBack);
  }

  private async send(row: NotificationLogRow): Promise<void> {
    const { deps } = this;
    try {
      const outcome = await this.bounded(deliver(deps, row));
      await record(deps.db, row, outcome, this.now());
      if (outcome.status === 'failure') {
        deps.logger.warn({ notificationLogId: row.id, accountId: row.account_id, error: outcome.error }, 'notification send failed');
      }
    } catch (err) {
      // Recording failed (the database): the lease runs out and another pass sends the row again.
      deps.logger.error({ err, notificationLogId: row.id }, 'notification outcome not recorded');
    }
  }

  /**
   * A send's outcome by the deadline at the latest: a provider that keeps a call open without its
   * own time-out firing (an answer trickling in) fails the send then, as a retryable failure, so its
   * lane, its lease and a stopping worker are not held by it.
   */
  private bounded(send: Promise<Outcome>): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Outcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'failure', error: `The provider did not answer within ${this.deadlineMs / 1000} s.`, permanent: false }),
        this.deadlineMs,
      );
    });
    return Promise.race([send, late]).finally(() => clearTimeout(timer));
  }

  private async handBack(row: NotificationLogRow): Promise<void> {
    try {
      await this.deps
        .db('notification_log')
        .where({ account_id: row.account_id, id: row.id, lease_until: row.lease_until })
        .update({ lease_until: null });
    } catch (err) {
      // The lease runs out by itself.
      this.deps.logger.error({ err, notificationLogId: row.id }, 'notification lease not handed back');
    }
  }
}

/** One pass: claims up to `limit` due rows at `now`, sends them, and returns how many it claimed once all are recorded. */
export async function sendDueNotifications(deps: SenderDeps, now: Date, limit: number): Promise<number> {
  const pool = new NotificationPool(deps, () => now);
  const claimed = await pool.claim(limit);
  await pool.settled();
  return claimed;
}
