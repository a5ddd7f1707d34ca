import type { AddressInfo } from 'node:net';
// The package root loads modules this Node version lacks (BIMI over undici); the DKIM verifier alone does not.
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CODES } from '../../src/events/codes.js';
import { startTestDns, type TestDns, type ZoneRecords } from '../support/dns.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { at, create, eventsOf, logRow, NOW, path, postLog, queue, send } from './support.js';

const SMTP_PASSWORD = 'smtp-pass-Zq81xVv0';
const SMTP_USER = 'mailer';

interface Received {
  from: string;
  to: string[];
  raw: Buffer;
  mail: Email;
}

let smtp: SMTPServer;
let dns: TestDns;
let inbox: Received[] = [];
let rejectAuth = false;
let app: TestApp;
let acct: TestAccount;
let streak: Record<string, any>;
let rule: Record<string, any>;
let template: Record<string, any>;
let mailIntegration: Record<string, any>;

async function startSmtp(): Promise<number> {
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (rejectAuth || auth.username !== SMTP_USER || auth.password !== SMTP_PASSWORD) {
        cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        return;
      }
      cb(null, { user: auth.username });
    },
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('bounce')) return cb(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      if (address.address.startsWith('later')) return cb(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        PostalMime.parse(raw).then((mail) => {
          inbox.push({
            from: (session.envelope.mailFrom as { address: string }).address,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            mail,
          });
          cb();
        }, cb);
      });
    },
  });
  await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', ok));
  return (smtp.server.address() as AddressInfo).port;
}

const HTML = (greeting: string, unsubscribe: string) => `<html><head><title>Streak</title></head><body>
{{>header}}
<div class="content">
<h1 id="greeting">${greeting} {{$account_user.firstName}}</h1>
<p id="raw">{{{$account_user.firstName}}}</p>
<p id="tenancy">{{$organization.name}} / {{$account.name}} / {{$account_user.lastName}} / {{$account_user.email}} / {{$account_user.externalId}}</p>
<p id="event">{{$event_log.eventCode}} / {{$event_log.payload.streakLog.streak.eudTitle}}</p>
<p id="helpers">{{$helpers.currentProgressValue}} {{$helpers.periodText}} | {{$helpers.remainingValue}} | {{$helpers.nextMilestoneTargetValue}} ({{$helpers.nextMilestoneRemainingValue}}) | {{$helpers.nextNonMilestoneTargetValue}} ({{$helpers.nextNonMilestoneRemainingValue}}) | {{$helpers.completionTargetValue}} | {{$helpers.formattedStreakToBeBrokenAt}}</p>
<p id="missing">[{{$account_user.nickname}}][{{$event_log.payload.nothing.here}}][{{$helpers.rewardValidTill}}]</p>
<a class="cta-button-primary" href="{{$helpers.unsubscribeUrl}}">${unsubscribe}</a>
</div>
{{>footer}}
</body></html>`;

const header = (mail: Email, key: string) => mail.headers.find((h) => h.key === key)?.value;

/** The text of the element with this id in a rendered email. */
function byId(html: string, id: string): string {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html);
  expect(match, `#${id} in ${html}`).not.toBeNull();
  return match![1]!;
}

async function member(externalId: string, over: Record<string, unknown> = {}) {
  return create(acct, 'account_user', { externalId, firstName: 'Sam', email: `${externalId}@example.net`, ...over });
}

/** Logs one day of the streak for the member; returns the event rows it wrote. */
async function logDay(memberId: string, day: string) {
  const before = (await eventsOf(app, memberId)).length;
  await postLog(acct, 'streak_log', { streakId: streak.id, ownedById: memberId, activityAt: `${day}T10:00:00.000Z` });
  return (await eventsOf(app, memberId)).slice(before);
}

beforeAll(async () => {
  const port = await startSmtp();
  dns = await startTestDns();
  app = await startTestApp({
    LOYALTY_DNS_SERVERS: dns.server,
    LOYALTY_EMAIL_TRANSPORT: 'smtp',
    LOYALTY_SMTP_URL: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    LOYALTY_EMAIL_SHARED_DOMAIN: 'mail.loyalty.test',
  });
  app.running.services.records.now = () => NOW;
  acct = await app.createAccount({ organizationName: 'Acme Group', accountName: 'Acme Fitness', timezone: 'Europe/Paris' });

  const reward = await create(acct, 'reward', {
    name: 'Ten',
    description: '10% off',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'relative',
    rewardExpiryInDays: 30,
    handleCoupon: true,
    handleCouponAutoGeneration: true,
  });
  streak = await create(acct, 'streak', { name: 'Daily visit', status: 'live', completionTargetValue: 30, eudTitle: 'Visit streak' });
  await acct.api.patch(path('streak', streak.id), { eudTitle: 'Série de visites' }, undefined, { languageCode: 'fr' });
  await create(acct, 'milestone', {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    name: 'Three',
    description: 'd',
    milestoneTargetValue: 3,
    status: 'live',
    rewardId: reward.id,
  });
  await create(acct, 'milestone', {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    name: 'Seven',
    description: 'd',
    milestoneTargetValue: 7,
    status: 'live',
  });

  const header = await create(acct, 'email_header', { name: 'H', htmlContent: '<div class="header">HEADER {{$organization.name}}</div>' });
  await acct.api.patch(
    path('email_header', header.id),
    { htmlContent: '<div class="header">EN-TÊTE {{$organization.name}}</div>' },
    undefined,
    { languageCode: 'fr' },
  );
  const footer = await create(acct, 'email_footer', { name: 'F', htmlContent: '<div class="footer">FOOTER {{$account.name}}</div>' });
  await create(acct, 'email_theme', { name: 'Old', status: 'live', style: '.content { color: #000000; }' });
  await create(acct, 'email_theme', {
    name: 'Brand',
    status: 'live',
    style:
      '.content { color: #123456; } .cta-button-primary { background-color: #ff0066; } @media (max-width: 600px) { .content { padding: 8px; } }',
  });
  await create(acct, 'email_theme', { name: 'Draft', status: 'draft', style: '.content { color: #999999; }' });
  template = await create(acct, 'email_template', {
    name: 'Streak update',
    status: 'live',
    sampleEventCode: 'streak_progress_non_milestone_completed',
    emailHeaderId: header.id,
    emailFooterId: footer.id,
    subject: '{{$account.name}}: keep going, {{$account_user.firstName}}!',
    htmlContent: HTML('Hello', 'Unsubscribe'),
  });
  await acct.api.patch(
    path('email_template', template.id),
    { subject: '{{$account.name}} : continuez, {{$account_user.firstName}} !', htmlContent: HTML('Bonjour', 'Se désabonner') },
    undefined,
    { languageCode: 'fr' },
  );
  mailIntegration = await create(acct, 'service_email', { name: 'Shared', replyToEmailAddress: 'help@acme.test', status: 'live' });
  rule = await create(acct, 'notification', {
    name: 'Streak mail',
    status: 'live',
    eventCodes: ['streak_progress_non_milestone_completed', 'streak_progress_milestone_completed'],
    integrationProvider: 'service_email',
    integrationId: mailIntegration.id,
    templateId: template.id,
  });
});

afterAll(async () => {
  await app?.close();
  await dns?.close();
  await new Promise<void>((ok) => smtp?.close(() => ok()));
});

describe('email over SMTP', () => {
  let zoe: Record<string, any>;
  let received: Received;

  it('renders every namespace, partials, escaping, the theme and the member language, and sends it', async () => {
    zoe = await member('zoe', {
      firstName: 'Zoë <b>&</b>',
      lastName: 'Durand',
      email: 'zoe@example.net',
      languageCode: 'fr',
      timezone: 'Europe/Paris',
    });
    await logDay(zoe.id, '2026-12-08');
    const [event] = await logDay(zoe.id, '2026-12-09');
    expect(event.event_code).toBe('streak_progress_non_milestone_completed');
    const id = await queue(app, rule as any, event);

    inbox = [];
    expect(await send(app)).toBe(1);
    expect(inbox).toHaveLength(1);
    received = inbox[0]!;
    const { mail } = received;
    expect(received.to).toEqual(['zoe@example.net']);
    expect(received.from).toBe('no-reply@mail.loyalty.test');
    expect(mail.from).toEqual({ name: 'Acme Fitness', address: 'no-reply@mail.loyalty.test' });
    expect(mail.replyTo).toEqual([{ name: '', address: 'help@acme.test' }]);
    // Subjects are text: the member's name is not HTML-escaped there.
    expect(mail.subject).toBe('Acme Fitness : continuez, Zoë <b>&</b> !');

    const html = mail.html as string;
    expect(byId(html, 'greeting')).toBe('Bonjour Zoë &lt;b&gt;&amp;&lt;/b&gt;');
    expect(html).toMatch(/<p id="raw"[^>]*>Zoë <b>&<\/b><\/p>/);
    expect(byId(html, 'tenancy')).toBe('Acme Group / Acme Fitness / Durand / zoe@example.net / zoe');
    // Event payloads are written in the member's language, whatever language the log request used.
    expect(byId(html, 'event')).toBe('streak_progress_non_milestone_completed / Série de visites');
    // Two days done, the 3-day milestone next; the period must be completed by the end of 10 December in Paris.
    expect(byId(html, 'helpers')).toBe('2 jour | 1 | 3 (1) | 3 (1) | 30 | 10 décembre 2026 à 23:59');
    expect(byId(html, 'missing')).toBe('[][][]');
    expect(html).toContain('EN-TÊTE Acme Group');
    expect(html).toContain('FOOTER Acme Fitness');
    // The default stylesheet, then the newest live theme, which overrides it; what cannot be inlined stays in a style element.
    const styleOf = (cls: string) => new RegExp(`class="${cls}"[^>]*style="([^"]*)"`).exec(html)![1]!;
    expect(styleOf('content')).toContain('border-radius: 8px');
    expect(styleOf('content')).toContain('color: #123456');
    expect(styleOf('cta-button-primary')).toContain('padding: 12px 24px');
    expect(styleOf('cta-button-primary')).toContain('background-color: #ff0066');
    expect(styleOf('cta-button-primary')).not.toContain('#7c3aed');
    expect(html).toMatch(/<style>[\s\S]*@media \(max-width: 600px\)/);

    // A text/plain alternative of the same content: text as a person reads it, links kept as "label [url]".
    expect(received.raw.toString()).toMatch(/^Content-Type: multipart\/alternative;/im);
    const href = /href="([^"]+)"/.exec(html)![1]!;
    const lines = (mail.text as string)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines).toContain('Bonjour Zoë <b>&</b>');
    expect(lines).toContain('Acme Group / Acme Fitness / Durand / zoe@example.net / zoe');
    expect(lines).toContain('2 jour | 1 | 3 (1) | 3 (1) | 30 | 10 décembre 2026 à 23:59');
    expect(lines).toContain(`Se désabonner [${href}]`);
    expect(lines[0]).toBe('EN-TÊTE Acme Group');
    expect(lines.at(-1)).toBe('FOOTER Acme Fitness');
    expect(mail.text).not.toMatch(/<p|<div|style=|@media|&lt;|&amp;/);

    // One Message-ID per notification log, so a send repeated after a crash reads as the same message.
    expect(mail.messageId).toBe(`<${id}@mail.loyalty.test>`);
    const log = await logRow(app, id);
    expect(log).toMatchObject({
      notification_log_status: 'sent',
      provider_message_id: mail.messageId,
      attempt_count: 1,
      error: null,
      lease_until: null,
    });
    expect(log.sent_at).toEqual(NOW);
    const api = await acct.api.get(path('notification_log', id));
    expect(api.body.data).toMatchObject({
      notificationLogStatus: 'sent',
      channel: 'email',
      providerMessageId: mail.messageId,
      attemptCount: 1,
    });
  });

  it('formats the reward expiry in the member language and time zone', async () => {
    const [event] = await logDay(zoe.id, '2026-12-10');
    expect(event.event_code).toBe('streak_progress_milestone_completed');
    await queue(app, rule as any, event);
    inbox = [];
    await send(app);
    // Issued at NOW, valid 30 days.
    expect(byId(inbox[0]!.mail.html as string, 'missing')).toBe('[][][9 janvier 2027]');
  });

  it('follows the unsubscribe link: the member is opted out and the next send is skipped', async () => {
    const href = /href="([^"]+)"/.exec(received.mail.html as string)![1]!;
    expect(header(received.mail, 'list-unsubscribe')).toBe(`<${href}>`);
    expect(header(received.mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const link = new URL(href);
    expect(link.pathname).toMatch(/^\/u\/[A-Za-z0-9_-]{64}$/);

    const page = await fetch(`${app.url}${link.pathname}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Désabonnement confirmé');
    expect((await acct.api.get(path('account_user', zoe.id))).body.data.unsubscribedChannels).toEqual(['email']);
    // Following it again changes nothing.
    expect((await fetch(`${app.url}${link.pathname}`, { method: 'POST' })).status).toBe(200);
    expect((await acct.api.get(path('account_user', zoe.id))).body.data.unsubscribedChannels).toEqual(['email']);

    const [event] = await eventsOf(app, zoe.id);
    const id = await queue(app, rule as any, event);
    inbox = [];
    await send(app);
    expect(inbox).toHaveLength(0);
    expect(await logRow(app, id)).toMatchObject({
      notification_log_status: 'skipped',
      error: 'The member has unsubscribed from email messages.',
      attempt_count: 0,
    });
  });

  it('shows the opt-outs to the member read-only; an API key clears one and mail flows again', async () => {
    const token = await acct.api.post('/enduser/token', { externalId: 'zoe' });
    const self = app.anon.with({ 'x-enduser-access-token': token.body.data.accessToken, 'x-account-id': acct.accountId });
    expect((await self.get('/schema/account_user/me')).body.data.unsubscribedChannels).toEqual(['email']);
    // Of their own record a member writes only their birthday.
    expect((await self.patch('/schema/account_user/me', { unsubscribedChannels: [] })).status).toBe(400);
    expect((await self.patch(path('account_user', zoe.id), { unsubscribedChannels: [] })).status).toBe(403);

    for (const bad of [['fax'], ['email', 'email'], 'email']) {
      const res = await acct.api.patch(path('account_user', zoe.id), { unsubscribedChannels: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
    }
    const cleared = await acct.api.patch(path('account_user', zoe.id), { unsubscribedChannels: [] });
    expect(cleared.body.data.unsubscribedChannels).toEqual([]);
    const [event] = await eventsOf(app, zoe.id);
    const id = await queue(app, rule as any, event);
    inbox = [];
    await send(app);
    expect(inbox.map((m) => m.to)).toEqual([['zoe@example.net']]);
    expect(await logRow(app, id)).toMatchObject({ notification_log_status: 'sent' });
  });

  it('answers 404 to a bad or tampered token', async () => {
    const token = /\/u\/([A-Za-z0-9_-]+)/.exec(received.mail.html as string)![1]!;
    const tampered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const bad of [tampered, 'preview', token.slice(0, -1), `${token}A`]) {
      const res = await fetch(`${app.url}/u/${bad}`);
      expect(res.status, bad).toBe(404);
      expect(await res.text()).toContain('not valid');
    }
  });

  it('uses the account default language when the member has none, and a missing variable renders empty', async () => {
    const sam = await member('sam-en');
    await logDay(sam.id, '2026-12-08');
    const [event] = await logDay(sam.id, '2026-12-09');
    await queue(app, rule as any, event);
    inbox = [];
    await send(app);
    const { mail } = inbox[0]!;
    expect(mail.subject).toBe('Acme Fitness: keep going, Sam!');
    expect(byId(mail.html as string, 'greeting')).toBe('Hello Sam');
    expect(mail.html).toContain('HEADER Acme Group');
    // ICU puts a narrow no-break space before the day period.
    expect(byId(mail.html as string, 'helpers').replace(/\u202f/g, ' ')).toBe(
      '2 day | 1 | 3 (1) | 3 (1) | 30 | December 10, 2026 at 11:59 PM',
    );
  });

  it('signs mail of a custom domain with its DKIM key and sends from its address', async () => {
    const custom = await create(acct, 'service_email', {
      name: 'Custom',
      replyToEmailAddress: 'support@shop.example.com',
      status: 'live',
      useGamopandaDomain: false,
      domain: 'shop.example.com',
      mailFrom: 'mail',
      senderEmailAddress: 'hello@shop.example.com',
    });
    const customRule = await create(acct, 'notification', {
      name: 'Custom mail',
      status: 'live',
      eventCodes: ['streak_progress_non_milestone_completed'],
      integrationProvider: 'service_email',
      integrationId: custom.id,
      templateId: template.id,
    });
    const kim = await member('kim');
    await logDay(kim.id, '2026-12-08');
    const [event] = await logDay(kim.id, '2026-12-09');
    // Not before its DNS records prove the domain the merchant's: mail in its name would be a forgery.
    const early = await queue(app, customRule as any, event);
    inbox = [];
    await send(app);
    expect(inbox).toEqual([]);
    expect(await logRow(app, early)).toMatchObject({
      notification_log_status: 'skipped',
      error: 'The sending domain shop.example.com is not verified: publish its DNS records, then verify_dns.',
    });
    for (const record of custom.dnsRecords as { type: string; name: string; value: string }[]) {
      const at: ZoneRecords = dns.zone.get(record.name) ?? {};
      if (record.type === 'MX') at.MX = [{ exchange: record.value, priority: 10 }];
      else at.TXT = [...(at.TXT ?? []), record.value.match(/.{1,255}/g)!];
      dns.zone.set(record.name, at);
    }
    expect((await accepted(acct.api.post(`${path('service_email', custom.id)}/action/verify_dns`))).isVerified).toBe(true);
    await queue(app, customRule as any, event);
    await send(app);
    const { mail, raw, from } = inbox[0]!;
    expect(mail.from).toEqual({ name: 'Acme Fitness', address: 'hello@shop.example.com' });
    // Bounces go to the MAIL FROM subdomain, whose SPF record the integration publishes.
    expect(from).toBe('bounces@mail.shop.example.com');
    expect(mail.replyTo).toEqual([{ name: '', address: 'support@shop.example.com' }]);
    const signature = /^DKIM-Signature:[\s\S]*?(?=\r\n\S)/m.exec(raw.toString())![0];
    expect(signature).toContain('d=shop.example.com');
    const dkimRecord = (custom.dnsRecords as { type: string; name: string; value: string }[]).find((r) => r.name.includes('._domainkey.'))!;
    expect(signature).toContain(`s=${dkimRecord.name.split('._domainkey.')[0]}`);
    // The signature verifies against the public key the integration asks the merchant to publish.
    const verified = await dkimVerify(raw, {
      resolver: async (name: string, type: string) => {
        if (type === 'TXT' && name === dkimRecord.name) return [[dkimRecord.value]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(verified.results.map((r) => [r.signingDomain, r.status.result])).toEqual([['shop.example.com', 'pass']]);
  });
});

describe('email failures and skips', () => {
  it('retries a temporary rejection with backoff, then fails with the server reason and no secret', async () => {
    const later = await member('later-1', { email: 'later@example.net' });
    await logDay(later.id, '2026-12-08');
    const [event] = await logDay(later.id, '2026-12-09');
    const id = await queue(app, rule as any, event);

    expect(await send(app)).toBe(1);
    let log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'pending', attempt_count: 1 });
    expect(log.next_attempt_at).toEqual(at(30_000));
    expect(log.error).toContain('451');

    expect(await send(app, at(29_999))).toBe(0);
    expect(await send(app, at(30_000))).toBe(1);
    log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'pending', attempt_count: 2 });
    expect(log.next_attempt_at).toEqual(at(30_000 + 120_000));
    expect(await send(app, at(150_000))).toBe(1);
    log = await logRow(app, id);
    expect(log.next_attempt_at).toEqual(at(150_000 + 600_000));
    expect(await send(app, at(750_000))).toBe(1);
    log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'failed', attempt_count: 4 });
    expect(log.error).toMatch(/451.*try again later/);
    expect(log.error).not.toContain(SMTP_PASSWORD);
    expect(await send(app, at(3_600_000))).toBe(0);
  });

  it('fails a permanent rejection at once, and one failing send does not stop the others', async () => {
    const bounce = await member('bounce-1', { email: 'bounce@example.net' });
    const ok = await member('ok-1');
    const queued: string[] = [];
    for (const m of [bounce, ok]) {
      await logDay(m.id, '2026-12-08');
      const [event] = await logDay(m.id, '2026-12-09');
      queued.push(await queue(app, rule as any, event));
    }
    inbox = [];
    expect(await send(app)).toBe(2);
    expect(await logRow(app, queued[0]!)).toMatchObject({ notification_log_status: 'failed', attempt_count: 1 });
    expect((await logRow(app, queued[0]!)).error).toMatch(/550.*Mailbox unavailable/);
    expect(await logRow(app, queued[1]!)).toMatchObject({ notification_log_status: 'sent' });
    expect(inbox.map((m) => m.to)).toEqual([['ok-1@example.net']]);
  });

  it('fails on refused SMTP credentials without storing the password', async () => {
    const m = await member('auth-1');
    await logDay(m.id, '2026-12-08');
    const [event] = await logDay(m.id, '2026-12-09');
    const id = await queue(app, rule as any, event);
    rejectAuth = true;
    try {
      await send(app);
    } finally {
      rejectAuth = false;
    }
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'failed', attempt_count: 1 });
    expect(log.error).toContain('EAUTH');
    expect(log.error).not.toContain(SMTP_PASSWORD);
  });

  it('skips members without an email and rules, templates or integrations that are not live at send time', async () => {
    const noMail = await member('no-mail', { email: null });
    await logDay(noMail.id, '2026-12-08');
    const [first] = await logDay(noMail.id, '2026-12-09');
    const id = await queue(app, rule as any, first);
    await send(app);
    expect(await logRow(app, id)).toMatchObject({ notification_log_status: 'skipped', error: 'The member has no email address.' });

    const m = await member('paused-1');
    await logDay(m.id, '2026-12-08');
    const [event] = await logDay(m.id, '2026-12-09');
    const cases: [string, string, string][] = [
      ['notification', rule.id, 'The notification rule is paused.'],
      ['email_template', template.id, 'The template is draft.'],
      ['service_email', mailIntegration.id, 'The integration is paused.'],
    ];
    for (const [slug, recordId, reason] of cases) {
      const status = reason.endsWith('draft.') ? 'draft' : 'paused';
      expect((await acct.api.patch(path(slug, recordId), { status })).status).toBe(200);
      const queuedId = await queue(app, rule as any, event);
      inbox = [];
      await send(app);
      expect(inbox).toHaveLength(0);
      expect(await logRow(app, queuedId)).toMatchObject({ notification_log_status: 'skipped', error: reason });
      expect((await acct.api.patch(path(slug, recordId), { status: 'live' })).status).toBe(200);
    }
  });
});

describe('a template without the member’s language', () => {
  it('is not sent empty: a template written only in a language §7 does not reach for the member is skipped, saying why', async () => {
    const japanese = await create(
      acct,
      'email_template',
      {
        name: 'Japanese only',
        status: 'live',
        sampleEventCode: 'streak_progress_non_milestone_completed',
        subject: 'こんにちは',
        htmlContent: '<p>本文</p>',
      },
      { languageCode: 'ja' },
    );
    const japaneseRule = await create(acct, 'notification', {
      name: 'Japanese mail',
      status: 'live',
      eventCodes: ['streak_progress_non_milestone_completed'],
      integrationProvider: 'service_email',
      integrationId: mailIntegration.id,
      templateId: japanese.id,
    });
    const m = await member('english-reader');
    await logDay(m.id, '2026-12-08');
    const [event] = await logDay(m.id, '2026-12-09');
    const id = await queue(app, japaneseRule as any, event);
    inbox = [];
    await send(app);
    expect(inbox).toHaveLength(0);
    expect(await logRow(app, id)).toMatchObject({
      notification_log_status: 'skipped',
      error: "The template has no subject in en (the member's language, then the account's, then en).",
    });
    expect((await acct.api.patch(path('notification', japaneseRule.id), { status: 'paused' })).status).toBe(200);
  });
});

describe('render action', () => {
  it('renders the template against sample data for its sampleEventCode', async () => {
    const res = await acct.api.post(`${path('email_template', template.id)}/action/render`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { subject, html } = res.body.data;
    expect(subject).toBe('Acme Fitness: keep going, Alex!');
    expect(byId(html, 'tenancy')).toBe('Acme Group / Acme Fitness / Morgan / alex.morgan@example.com / customer-10452');
    expect(byId(html, 'event')).toBe('streak_progress_non_milestone_completed / Weekly workout streak');
    expect(byId(html, 'helpers')).toMatch(/^6 week \| 2 \| 8 \(2\) \| 7 \(1\) \| 12 \| .+ at .+$/);
    expect(html).toMatch(/<div class="content" style="[^"]*border-radius: 8px;[^"]*color: #123456;?">/);
    expect(html).toContain('HEADER Acme Group');
    expect(html).toContain('href="/u/preview"');
    expect(res.body.data.text).toContain('Unsubscribe [/u/preview]');
    // What it reads that no member or event has (rendered empty above) is named.
    expect(res.body.data.unknownVariables).toEqual(['$account_user.nickname', '$event_log.payload.nothing.here']);

    const fr = await acct.api.request('POST', `${path('email_template', template.id)}/action/render`, { query: { languageCode: 'fr' } });
    expect(fr.body.data.subject).toBe('Acme Fitness : continuez, Alex !');
    expect(byId(fr.body.data.html, 'helpers')).toMatch(/^6 semaine \| /);
    // The sample's member-facing texts are in the preview's language too.
    expect(byId(fr.body.data.html, 'event')).toBe('streak_progress_non_milestone_completed / Série d’entraînements hebdomadaires');
  });

  it('renders an unsaved draft in place of the stored values, leaving the template as it was', async () => {
    const render = (body: unknown, languageCode?: string) =>
      acct.api.request('POST', `${path('email_template', template.id)}/action/render`, {
        body,
        ...(languageCode ? { query: { languageCode } } : {}),
      });
    const drafted = await render({
      subject: 'Nearly there, {{$account_user.firstName}}',
      htmlContent: '{{>header}}<p id="draft">{{$helpers.remainingValue}} to go</p>',
      emailFooterId: null,
      sampleEventCode: 'challenge_progress_in_progress',
    });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(200);
    expect(drafted.body.data.subject).toBe('Nearly there, Alex');
    expect(byId(drafted.body.data.html, 'draft')).toBe('135 to go');
    expect(drafted.body.data.html).toContain('HEADER Acme Group');
    expect(drafted.body.data.html).not.toContain('FOOTER');
    // The draft's texts are the preview language's; what it leaves out is the stored template's, in that language.
    const fr = await render({ htmlContent: '<p id="draft">brouillon</p>' }, 'fr');
    expect(fr.body.data.subject).toBe('Acme Fitness : continuez, Alex !');
    expect(byId(fr.body.data.html, 'draft')).toBe('brouillon');
    expect((await acct.api.get(path('email_template', template.id))).body.data).toMatchObject({
      sampleEventCode: 'streak_progress_non_milestone_completed',
      htmlContent: HTML('Hello', 'Unsubscribe'),
    });

    const unclosed = await render({ htmlContent: '<p>{{#if $account.name}}open</p>' });
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.error.details[0]).toMatchObject({ field: 'htmlContent' });
    const unknown = await render({ htmlContent: '<p></p>', name: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'name', code: 'unknown_field' })]);
    // The codes the record endpoints give the same fields.
    expect((await render({ emailHeaderId: 'header' })).body.error.details[0]).toMatchObject({
      field: 'emailHeaderId',
      code: 'invalid_format',
    });
    // A header or footer the account does not have (none, or another account's) is refused as a save refuses it.
    const stranger = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
    const theirs = await create(stranger, 'email_footer', { name: 'Theirs', status: 'live', htmlContent: 'THEIRS' });
    for (const [field, id] of [
      ['emailHeaderId', '00000000-0000-4000-8000-000000000000'],
      ['emailFooterId', theirs.id],
    ] as const) {
      const refused = await render({ [field]: id });
      expect(refused.status, field).toBe(400);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ field, code: 'not_found' })]);
      const saved = await acct.api.patch(path('email_template', template.id), { [field]: id });
      expect(saved.body.error.details).toEqual([expect.objectContaining({ field, code: 'not_found' })]);
    }
  });

  it('has sample data for every event code', async () => {
    const probe = await create(acct, 'email_template', {
      name: 'Probe',
      status: 'draft',
      sampleEventCode: 'streak_progress_in_progress',
      subject: '{{$event_log.eventCode}}',
      htmlContent:
        '<p id="h">{{$helpers.currentProgressValue}}|{{$helpers.remainingValue}}|{{$helpers.completionTargetValue}}|{{$helpers.periodText}}|{{$helpers.rewardValidTill}}</p>',
    });
    const rendered: Record<string, string> = {};
    for (const code of EVENT_CODES) {
      await acct.api.patch(path('email_template', probe.id), { sampleEventCode: code });
      const res = await acct.api.post(`${path('email_template', probe.id)}/action/render`);
      expect(res.status, code).toBe(200);
      expect(res.body.data.subject).toBe(code);
      rendered[code] = byId(res.body.data.html, 'h');
    }
    expect(rendered.streak_progress_in_progress).toBe('5|3|12|week|');
    expect(rendered.streak_progress_milestone_completed).toMatch(/^8\|4\|12\|week\|[A-Z][a-z]+ \d+, \d{4}$/);
    expect(rendered.streak_progress_broken).toBe('6|2|12|week|');
    expect(rendered.challenge_progress_in_progress).toBe('65|135|200|month|');
    expect(rendered.challenge_progress_completed).toBe('210|0|200|month|');
    expect(rendered.challenge_progress_to_be_failed).toBe('115|85|200|month|');
    expect(rendered.mission_progress_in_progress).toBe('1|2|3|week|');
    expect(rendered.mission_progress_completed).toMatch(/^3\|0\|3\|week\|[A-Z][a-z]+ \d+, \d{4}$/);
  });

  it("writes a message in one language: without the member's text, its values follow the text it falls back to", async () => {
    const probe = await create(acct, 'email_template', {
      name: 'One language',
      status: 'draft',
      sampleEventCode: 'streak_progress_milestone_completed',
      subject: '{{$helpers.completionTargetValue}} {{$helpers.periodText}}s',
      htmlContent: '<p id="h">{{$helpers.periodText}}|{{$helpers.rewardValidTill}}</p>',
    });
    const render = async (languageCode: string) => {
      const res = await acct.api.request('POST', `${path('email_template', probe.id)}/action/render`, { query: { languageCode } });
      expect(res.status, languageCode).toBe(200);
      return { subject: res.body.data.subject as string, h: byId(res.body.data.html, 'h') };
    };
    // Only English written: a German reader gets the English text, and its values in English.
    expect(await render('de')).toEqual({ subject: '12 weeks', h: expect.stringMatching(/^week\|[A-Z][a-z]+ \d+, \d{4}$/) });
    await acct.api.patch(
      path('email_template', probe.id),
      { subject: '{{$helpers.periodText}}', htmlContent: '<p id="h">{{$helpers.periodText}}|{{$helpers.rewardValidTill}}</p>' },
      undefined,
      {
        languageCode: 'de',
      },
    );
    expect(await render('de')).toEqual({ subject: 'Woche', h: expect.stringMatching(/^Woche\|\d+\. [A-Z][a-zä]+ \d{4}$/) });
    expect((await render('fr')).h).toMatch(/^week\|/);
    // Push, SMS and chat likewise: a chat template's values in its provider template's language.
    const sms = await create(acct, 'sms_template', { name: 'One language', status: 'draft', body: '{{$helpers.periodText}}' });
    const smsIn = async (languageCode: string) =>
      (
        await acct.api.request('POST', `${path('sms_template', sms.id)}/action/render`, {
          body: { eventCode: 'streak_progress_in_progress' },
          query: { languageCode },
        })
      ).body.data.body;
    expect(await smsIn('de')).toBe('week');
    await acct.api.patch(path('sms_template', sms.id), { body: '{{$helpers.periodText}}' }, undefined, { languageCode: 'de' });
    expect(await smsIn('de')).toBe('Woche');
    const chat = await create(acct, 'chat_message_template', {
      name: 'One language',
      status: 'draft',
      templateName: 'streak_reminder',
      templateLanguageCode: 'de_DE',
      bodyParameters: ['{{$helpers.periodText}}'],
    });
    const chatIn = async (languageCode: string) =>
      (
        await acct.api.request('POST', `${path('chat_message_template', chat.id)}/action/render`, {
          body: { eventCode: 'streak_progress_in_progress' },
          query: { languageCode },
        })
      ).body.data.bodyParameters;
    expect(await chatIn('fr')).toEqual(['Woche']);
    await acct.api.patch(path('chat_message_template', chat.id), { templateLanguageCode: 'xx' });
    expect(await chatIn('fr')).toEqual(['semaine']);
  });

  it('names each variable the texts read that the sample lacks, which a notification would render empty', async () => {
    const drafted = await acct.api.post(`${path('email_template', template.id)}/action/render`, {
      subject: 'Hi {{$account_user.firstname}} {{$account_user.firstName}}',
      htmlContent: [
        '{{>header}}{{#if $event_log.payload.streakLog}}{{$event_log.payload.streakLog.nmae}}{{else}}{{$nope}}{{/if}}',
        // Inside each and with the context is one of the sample's values: only @root paths are looked at there.
        '{{#with $event_log.payload.streakLog}}{{name}} {{whatever}} {{@root.$account.nmae}} {{@root.$account.name}}{{/with}}',
        '{{lookup $account_user "firstName"}} {{$event_log.payload.rewardLog.couponCode}} {{$nope}} {{@index}}',
      ].join(''),
      sampleEventCode: 'streak_progress_non_milestone_completed',
    });
    expect(drafted.status, JSON.stringify(drafted.body)).toBe(200);
    // Each once, as written, subject first; a reward log is what this event does not carry.
    expect(drafted.body.data.unknownVariables).toEqual([
      '$account_user.firstname',
      '$event_log.payload.streakLog.nmae',
      '$nope',
      '@root.$account.nmae',
      '$event_log.payload.rewardLog.couponCode',
    ]);
    expect(drafted.body.data.subject).toBe('Hi Alex');
    // The same of push, SMS and chat texts, for the event a rule sends them on.
    const sms = await create(acct, 'sms_template', {
      name: 'Typos',
      status: 'draft',
      body: '{{$account_user.firstName}} {{$helpers.remaining}}',
    });
    const rendered = await acct.api.post(`${path('sms_template', sms.id)}/action/render`, { eventCode: 'challenge_progress_in_progress' });
    expect(rendered.body.data).toEqual({ body: 'Alex ', unknownVariables: ['$helpers.remaining'] });
    const chat = await create(acct, 'chat_message_template', {
      name: 'Typos',
      status: 'draft',
      templateName: 'reward',
      templateLanguageCode: 'en',
      bodyParameters: ['{{$event_log.payload.rewardLog.couponCode}}', '{{$event_log.payload.rewardLog.cuponCode}}'],
    });
    const chatRendered = await acct.api.post(`${path('chat_message_template', chat.id)}/action/render`, { eventCode: 'reward_log_issued' });
    expect(chatRendered.body.data.unknownVariables).toEqual(['$event_log.payload.rewardLog.cuponCode']);
  });

  it('answers 409 for a template that cannot render, 404 for another account', async () => {
    const body = {
      name: 'Broken',
      status: 'draft',
      sampleEventCode: 'streak_progress_in_progress',
      subject: 'x',
      htmlContent: '<p>{{shout $account.name}}</p>',
    };
    expect((await acct.api.post(path('email_template'), body)).status).toBe(400);
    // Saved before templates were checked for helpers and partials.
    const broken = await create(acct, 'email_template', { ...body, htmlContent: '<p></p>' });
    await app
      .db('email_template')
      .where({ id: broken.id })
      .update({ html_content: { en: body.htmlContent } });
    const res = await acct.api.post(`${path('email_template', broken.id)}/action/render`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('shout');
    // Named, so the merchant knows which text to mend.
    expect(res.body.error.message).toMatch(/^The template's htmlContent cannot be rendered: /);
    const other = await app.createAccount();
    expect((await other.api.post(`${path('email_template', template.id)}/action/render`)).status).toBe(404);
  });

  it('stops a render at a million characters (409): loops within loops multiply a short template out of all measure', async () => {
    const nested = (depth: number): string => (depth === 0 ? 'X'.repeat(100) : `{{#each @root.$helpers}}${nested(depth - 1)}{{/each}}`);
    const huge = await create(acct, 'email_template', {
      name: 'Huge',
      status: 'draft',
      sampleEventCode: 'streak_progress_in_progress',
      subject: 'x',
      htmlContent: nested(5),
    });
    const res = await acct.api.post(`${path('email_template', huge.id)}/action/render`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('1000000 characters');
    // Two loops stay well within it.
    await accepted(acct.api.patch(path('email_template', huge.id), { htmlContent: nested(2) }));
    expect((await accepted(acct.api.post(`${path('email_template', huge.id)}/action/render`))).html).toContain('X'.repeat(100));
  });

  it('stops a render whose loops within loops write nothing (409), and refuses a template nested past what the parser takes (400)', async () => {
    const empty = await create(acct, 'email_template', {
      name: 'Empty loops',
      status: 'draft',
      sampleEventCode: 'streak_progress_in_progress',
      subject: 'x',
      htmlContent: `${'{{#each @root.$helpers}}'.repeat(9)} ${'{{/each}}'.repeat(9)}`,
    });
    const res = await acct.api.post(`${path('email_template', empty.id)}/action/render`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('more than 100000 turns');

    const deep = `{{lookup ${'(lookup '.repeat(3000)}this${' "a")'.repeat(3000)} "a"}}`;
    const refused = await acct.api.post('/schema/email_template/record', {
      name: 'Deep',
      status: 'draft',
      sampleEventCode: 'streak_progress_in_progress',
      subject: 'x',
      htmlContent: deep,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      expect.objectContaining({
        field: 'htmlContent',
        code: 'template_syntax',
        message: expect.stringContaining('A tag runs over 2000 characters'),
      }),
    ]);
  });
});

describe('points and tiers in messages', () => {
  const POINTS_HTML =
    '<p id="tier">{{$helpers.tierBeforeName}} to {{$helpers.tierAfterName}}|{{$helpers.tierName}}</p>' +
    '<p id="points">{{$helpers.formattedPoints}}|{{$helpers.formattedPointsBalance}}|{{$account_user.pointsBalance}}</p>' +
    '<p id="expiry">{{$helpers.formattedExpiringPoints}}|{{$helpers.formattedPointsExpireAt}}</p>' +
    '<p id="referral">https://shop.example/?loyalty_ref={{$account_user.referralCode}}</p>';
  let pointsTemplate: Record<string, any>;

  beforeAll(async () => {
    const [setting] = (await acct.api.get(path('points_setting'))).body.data;
    await acct.api.patch(path('points_setting', setting.id), { status: 'live', eudCurrencyName: 'Stars' });
    await acct.api.patch(path('points_setting', setting.id), { eudCurrencyName: 'Sterne' }, undefined, { languageCode: 'de' });
    await create(acct, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 100, earnMultiplier: 1, eudTitle: 'Silver' });
    const gold = await create(acct, 'tier', { name: 'Gold', status: 'live', pointsThreshold: 1000, earnMultiplier: 1, eudTitle: 'Gold' });
    await acct.api.patch(path('tier', gold.id), { eudTitle: 'Goldstatus' }, undefined, { languageCode: 'de' });
    pointsTemplate = await create(acct, 'email_template', {
      name: 'Points',
      status: 'live',
      sampleEventCode: 'points_to_expire',
      subject: '{{$helpers.formattedPointsBalance}}',
      htmlContent: POINTS_HTML,
    });
    // Its German text: values read in the language of the text around them.
    const german = { subject: '{{$helpers.formattedPointsBalance}}', htmlContent: POINTS_HTML };
    await acct.api.patch(path('email_template', pointsTemplate.id), german, undefined, { languageCode: 'de' });
  });

  it('speak of the entry, the balance and the tier in the member’s language and the account’s name for points', async () => {
    const pia = await member('pia', { languageCode: 'de', email: 'pia@example.net' });
    const pointsRule = await create(acct, 'notification', {
      name: 'Points mail',
      status: 'live',
      eventCodes: ['points_earned', 'tier_changed'],
      integrationProvider: 'service_email',
      integrationId: mailIntegration.id,
      templateId: pointsTemplate.id,
    });
    // 1,234 earned at once: past Silver into Gold.
    const entry = await acct.api.post(path('point_entry'), { ownedById: pia.id, points: 1234, reason: 'earned' });
    expect(entry.status, JSON.stringify(entry.body)).toBe(200);
    const events = (await eventsOf(app, pia.id)).filter((e) => e.event_code === 'points_earned' || e.event_code === 'tier_changed');
    expect(events.map((e) => e.event_code).sort()).toEqual(['points_earned', 'tier_changed']);
    inbox = [];
    for (const event of events) await queue(app, pointsRule as { id: string; integrationProvider: string }, event);
    await send(app);
    const mails = Object.fromEntries(
      inbox
        .filter((m) => m.to.includes('pia@example.net'))
        .map((m) => [byId(m.mail.html!, 'tier').startsWith(' to Goldstatus') ? 'tier' : 'earned', m.mail]),
    );
    expect(mails.tier!.subject).toBe('1.234 Sterne');
    expect(byId(mails.tier!.html!, 'tier')).toBe(' to Goldstatus|Goldstatus');
    expect(byId(mails.earned!.html!, 'points')).toBe('1.234 Sterne|1.234 Sterne|1234');
    expect(byId(mails.earned!.html!, 'tier')).toBe(' to |Goldstatus');
    expect(byId(mails.earned!.html!, 'referral')).toBe(`https://shop.example/?loyalty_ref=${pia.referralCode}`);
  });

  it('pair the balance an event left with the tier it left, not a tier a later entry reached before the send', async () => {
    const ole = await member('ole', { email: 'ole@example.net' });
    const pointsRule = await create(acct, 'notification', {
      name: 'Earned mail',
      status: 'live',
      eventCodes: ['points_earned'],
      integrationProvider: 'service_email',
      integrationId: mailIntegration.id,
      templateId: pointsTemplate.id,
    });
    for (const points of [50, 60])
      expect((await acct.api.post(path('point_entry'), { ownedById: ole.id, points, reason: 'earned' })).status).toBe(200);
    const earned = (await eventsOf(app, ole.id)).filter((e) => e.event_code === 'points_earned');
    expect(earned).toHaveLength(2);
    inbox = [];
    for (const event of earned) await queue(app, pointsRule as { id: string; integrationProvider: string }, event);
    await send(app);
    const lines = inbox
      .filter((m) => m.to.includes('ole@example.net'))
      .map((m) => `${byId(m.mail.html!, 'points')} ${byId(m.mail.html!, 'tier')}`)
      .sort();
    // The second entry took Ole into Silver: only its message says so.
    expect(lines).toEqual(['50 Stars|50 Stars|110  to |', '60 Stars|110 Stars|110  to |Silver']);
    expect((await acct.api.patch(path('notification', pointsRule.id), { status: 'paused' })).status).toBe(200);
  });

  it('preview them with sample data: the expiry warning, in the account’s words for points', async () => {
    const res = await acct.api.post(`${path('email_template', pointsTemplate.id)}/action/render`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.subject).toBe('250 Stars');
    expect(byId(res.body.data.html, 'expiry')).toMatch(/^250 Stars\|[A-Z][a-z]+ \d+, \d{4}$/);
    expect(byId(res.body.data.html, 'tier')).toBe(' to |Gold');
    const de = await acct.api.request('POST', `${path('email_template', pointsTemplate.id)}/action/render`, {
      query: { languageCode: 'de' },
    });
    expect(byId(de.body.data.html, 'expiry')).toMatch(/^250 Sterne\|\d+\. [A-Z][a-zä]+ \d{4}$/);
  });

  it('use the language’s word for points while the account names them nothing', async () => {
    const other = await app.createAccount();
    const probe = await create(other, 'email_template', {
      name: 'Probe',
      status: 'draft',
      sampleEventCode: 'tier_changed',
      subject: '{{$helpers.formattedPointsBalance}}',
      htmlContent: POINTS_HTML,
    });
    await other.api.patch(path('email_template', probe.id), { subject: '{{$helpers.formattedPointsBalance}}' }, undefined, {
      languageCode: 'de',
    });
    const res = await other.api.request('POST', `${path('email_template', probe.id)}/action/render`, { query: { languageCode: 'de' } });
    expect(res.body.data.subject).toBe('250 Punkte');
    expect(byId(res.body.data.html, 'tier')).toBe('Silver to Gold|Gold');
  });

  it('say one point with the name of one (the account’s, else the language’s), every other amount with the name of many', async () => {
    const other = await app.createAccount();
    const [setting] = (await other.api.get(path('points_setting'))).body.data;
    const template = await create(other, 'email_template', {
      name: 'One',
      status: 'live',
      sampleEventCode: 'points_earned',
      subject: '{{$helpers.formattedPoints}}',
      htmlContent: POINTS_HTML,
    });
    const rule = await create(other, 'notification', {
      name: 'One point',
      status: 'live',
      eventCodes: ['points_earned'],
      integrationProvider: 'service_email',
      integrationId: (await create(other, 'service_email', { name: 'Mail', replyToEmailAddress: 'reply@example.com', status: 'live' })).id,
      templateId: template.id,
    });
    let members = 0;
    const sent = async (points: number) => {
      const who = await create(other, 'account_user', { externalId: `one-${(members += 1)}`, email: 'one@example.net' });
      expect((await other.api.post(path('point_entry'), { ownedById: who.id, points, reason: 'earned' })).status).toBe(200);
      const [event] = (await eventsOf(app, who.id)).filter((e) => e.event_code === 'points_earned');
      inbox = [];
      await queue(app, rule as { id: string; integrationProvider: string }, event!);
      await send(app);
      return inbox.find((m) => m.to.includes('one@example.net'))?.mail.subject;
    };
    expect((await other.api.patch(path('points_setting', setting.id), { status: 'live' })).status).toBe(200);
    expect([await sent(1), await sent(2)]).toEqual(['1 point', '2 points']);
    const named = await other.api.patch(path('points_setting', setting.id), { eudCurrencyName: 'Stars', eudCurrencyNameOne: 'Star' });
    expect(named.body.data).toMatchObject({ eudCurrencyName: 'Stars', eudCurrencyNameOne: 'Star' });
    expect([await sent(1), await sent(3)]).toEqual(['1 Star', '3 Stars']);
  });
});
