import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventCode } from '../../src/events/codes.js';
import { samplePayload } from '../../src/notifications/samples.js';
import { readUnsubscribeToken, unsubscribeToken } from '../../src/notifications/unsubscribe.js';
import { CHANNELS } from '../../src/schema/members.js';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { at, create, eventsOf, logRow, NOW, postLog, queue, send } from './support.js';

const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-outbox-'));
const outbox = join(dataDir, 'outbox');
let app: TestApp;
let acct: TestAccount;
let rule: { id: string; integrationProvider: string };

const outboxFiles = () => {
  try {
    return readdirSync(outbox).sort();
  } catch {
    return [];
  }
};

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_EMAIL_TRANSPORT: 'file', LOYALTY_DATA_DIR: dataDir });
  app.running.services.records.now = () => NOW;
  acct = await app.createAccount({ organizationName: 'Acme Group', accountName: 'Acme Fitness', timezone: 'Europe/Paris' });
  const integration = await create(acct, 'service_email', { name: 'Mail', replyToEmailAddress: 'help@acme.test', status: 'live' });
  const template = await create(acct, 'email_template', {
    name: 'Progress',
    status: 'live',
    sampleEventCode: 'streak_progress_to_be_broken',
    subject: '{{$event_log.eventCode}} for {{$account_user.firstName}}',
    htmlContent:
      '<p id="h">{{$helpers.currentProgressValue}}|{{$helpers.remainingValue}}|{{$helpers.nextMilestoneRemainingValue}}|{{$helpers.completionTargetValue}}|{{$helpers.periodText}}|{{$helpers.formattedStreakToBeBrokenAt}}{{$helpers.formattedChallengeToBeFailedAt}}</p>',
  });
  rule = (await create(acct, 'notification', {
    name: 'All progress',
    status: 'live',
    integrationProvider: 'service_email',
    integrationId: integration.id,
    templateId: template.id,
    eventCodes: ['streak_progress_non_milestone_completed', 'streak_progress_to_be_broken', 'challenge_progress_to_be_failed'],
  })) as typeof rule;
});

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => rmSync(outbox, { recursive: true, force: true }));

async function parseOutbox() {
  return Promise.all(outboxFiles().map(async (f) => PostalMime.parse(readFileSync(join(outbox, f)))));
}

const sweep = (iso: string) => runSweeps(app.running.services.records, new Date(iso), 900);

describe('file transport and helpers from sweep payloads', () => {
  it('writes a parseable .eml per message into <dataDir>/outbox', async () => {
    const member = await create(acct, 'account_user', { externalId: 'file-1', firstName: 'Ada', email: 'ada@example.net' });
    await postLog(acct, 'streak_log', { streakId: (await create(acct, 'streak', { name: 'S', status: 'live' })).id, ownedById: member.id });
    const [event] = await eventsOf(app, member.id);
    const id = await queue(app, rule, event);
    expect(await send(app)).toBe(1);
    expect(outboxFiles()).toHaveLength(1);
    expect(outboxFiles()[0]).toMatch(/\.eml$/);
    const [mail] = await parseOutbox();
    expect(mail!.subject).toBe('streak_progress_non_milestone_completed for Ada');
    expect(mail!.to).toEqual([{ name: '', address: 'ada@example.net' }]);
    expect(mail!.from).toEqual({ name: 'Acme Fitness', address: 'no-reply@localhost' });
    expect(mail!.html).toContain('<p id="h">1|1|');
    expect(await logRow(app, id)).toMatchObject({ notification_log_status: 'sent', provider_message_id: mail!.messageId });
  });

  it('derives the streak helpers from a to_be_broken sweep payload', async () => {
    const streak = await create(acct, 'streak', { name: 'Daily', status: 'live', toBeBrokenWarningHours: 4, completionTargetValue: 20 });
    await create(acct, 'milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'Five',
      description: 'd',
      milestoneTargetValue: 5,
      status: 'live',
    });
    const member = await create(acct, 'account_user', {
      externalId: 'tokyo',
      firstName: 'Yui',
      email: 'yui@example.net',
      timezone: 'Asia/Tokyo',
    });
    // Tokyo: day 12-01 completed; 12-02 must be completed by 2026-12-02T15:00Z.
    await postLog(acct, 'streak_log', { streakId: streak.id, ownedById: member.id, activityAt: '2026-12-01T01:00:00Z' });
    expect((await sweep('2026-12-02T11:00:00Z'))['streak warnings']).toBe(1);
    const warning = (await eventsOf(app, member.id)).find((e) => e.event_code === 'streak_progress_to_be_broken')!;
    await queue(app, rule, warning);
    await send(app);
    const [mail] = await parseOutbox();
    expect(mail!.subject).toBe('streak_progress_to_be_broken for Yui');
    expect(mail!.html!.replace(/\u202f/g, ' ')).toContain('<p id="h">1|4|4|20|day|December 2, 2026 at 11:59 PM</p>');
  });

  it('derives the challenge helpers from a to_be_failed sweep payload', async () => {
    const challenge = await create(acct, 'challenge', {
      name: 'Spend',
      status: 'live',
      aggregationPeriod: 'weekly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    await create(acct, 'milestone', {
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      name: 'Half',
      description: 'd',
      milestoneTargetValue: 50,
      status: 'live',
    });
    const member = await create(acct, 'account_user', { externalId: 'paris', firstName: 'Léa', email: 'lea@example.net' });
    await postLog(acct, 'challenge_log', {
      challengeId: challenge.id,
      ownedById: member.id,
      activityAt: '2026-12-01T10:00:00Z',
      activityValue: 30.1,
    });
    // The ISO week ends Monday 2026-12-07 00:00 in Paris (2026-12-06T23:00Z); the warning comes 24 hours before.
    expect((await sweep('2026-12-05T23:00:00Z'))['challenge warnings']).toBe(1);
    const warning = (await eventsOf(app, member.id)).find((e) => e.event_code === 'challenge_progress_to_be_failed')!;
    await queue(app, rule, warning);
    await send(app);
    const [mail] = await parseOutbox();
    expect(mail!.html!.replace(/\u202f/g, ' ')).toContain('<p id="h">30.1|69.9|19.9|100|week|December 6, 2026 at 11:59 PM</p>');
  });
});

describe('claiming', () => {
  let batch = 0;
  async function pendingRows(count: number) {
    batch += 1;
    const member = await create(acct, 'account_user', { externalId: `batch-${batch}`, firstName: 'Bo', email: `bo${batch}@example.net` });
    await postLog(acct, 'streak_log', {
      streakId: (await create(acct, 'streak', { name: `B${batch}`, status: 'live' })).id,
      ownedById: member.id,
    });
    const [event] = await eventsOf(app, member.id);
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(await queue(app, rule, event));
    return ids;
  }

  it('gives each due row to one worker when several race', async () => {
    const ids = await pendingRows(30);
    const claimed = await Promise.all([send(app, NOW, 10), send(app, NOW, 10), send(app, NOW, 10), send(app, NOW, 10)]);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(30);
    expect(outboxFiles()).toHaveLength(30);
    const rows = await app.db('notification_log').whereIn('id', ids);
    expect(rows.every((r) => r.notification_log_status === 'sent' && r.attempt_count === 1)).toBe(true);
  });

  it('leaves leased rows alone until the lease of a crashed worker runs out', async () => {
    const [id] = await pendingRows(1);
    // A worker claimed the row at NOW and died before recording anything.
    await app
      .db('notification_log')
      .where({ id })
      .update({ lease_until: at(5 * 60_000) });
    expect(await send(app, at(60_000))).toBe(0);
    expect(await send(app, at(5 * 60_000))).toBe(1);
    expect(await logRow(app, id!)).toMatchObject({ notification_log_status: 'sent', lease_until: null });
  });

  it('does not send rows that are not due yet', async () => {
    const [id] = await pendingRows(1);
    await app
      .db('notification_log')
      .where({ id })
      .update({ next_attempt_at: at(60_000) });
    expect(await send(app)).toBe(0);
    expect(await send(app, at(60_000))).toBe(1);
  });
});

describe('unsubscribe tokens', () => {
  it('round-trip with their channel, and refuse another key or a changed channel', () => {
    const key = app.config.masterKey!;
    const memberId = '0b1f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    for (const channel of CHANNELS) {
      const token = unsubscribeToken(key, acct.accountId, memberId, channel);
      expect(readUnsubscribeToken(key, token)).toEqual({ accountId: acct.accountId, memberId, channel });
      expect(readUnsubscribeToken(Buffer.alloc(32, 7), token)).toBeUndefined();
    }
    // Email tokens keep the form links in emails sent before opt-outs were per channel have.
    expect(unsubscribeToken(key, acct.accountId, memberId, 'email')).toHaveLength(64);
    const sms = Buffer.from(unsubscribeToken(key, acct.accountId, memberId, 'sms'), 'base64url');
    sms[32] = CHANNELS.indexOf('push');
    expect(readUnsubscribeToken(key, sms.toString('base64url'))).toBeUndefined();
  });

  it('answer 404 for a valid token of a member that no longer exists', async () => {
    const token = unsubscribeToken(app.config.masterKey!, acct.accountId, '0b1f7a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b', 'email');
    expect((await fetch(`${app.url}/u/${token}`)).status).toBe(404);
  });
});

/** Compares the keys of two JSON values level by level, descending where both sides hold an object. */
function sameShape(real: unknown, sample: unknown, where: string): void {
  if (Array.isArray(real) && Array.isArray(sample)) {
    if (real.length && sample.length) sameShape(real[0], sample[0], `${where}[0]`);
    return;
  }
  if (!real || !sample || typeof real !== 'object' || typeof sample !== 'object') return;
  const r = real as Record<string, unknown>;
  const s = sample as Record<string, unknown>;
  expect(Object.keys(s).sort(), where).toEqual(Object.keys(r).sort());
  for (const key of Object.keys(r)) sameShape(r[key], s[key], `${where}.${key}`);
}

describe('sample payloads', () => {
  it('have the shape of the payloads the engine writes', async () => {
    const reward = await create(acct, 'reward', {
      name: 'R',
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    const streak = await create(acct, 'streak', {
      name: 'Shape',
      status: 'live',
      aggregationPeriod: 'weekly',
      aggregationTargetValue: 2,
      completionTargetValue: 2,
    });
    await create(acct, 'milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'M',
      description: 'd',
      milestoneTargetValue: 1,
      status: 'live',
      rewardId: reward.id,
    });
    const challenge = await create(acct, 'challenge', {
      name: 'Shape',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    await create(acct, 'milestone', {
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      name: 'M',
      description: 'd',
      milestoneTargetValue: 50,
      status: 'live',
      rewardId: reward.id,
    });
    const mission = await create(acct, 'mission', {
      name: 'Shape',
      status: 'live',
      rewardId: reward.id,
      tasks: [
        { name: 'a', activityId: 'a', targetValue: 1 },
        { name: 'b', activityId: 'b', targetValue: 1 },
      ],
    });
    const member = await create(acct, 'account_user', { externalId: 'shape', firstName: 'Kai' });
    const log = (slug: 'streak_log' | 'challenge_log' | 'mission_log', body: Record<string, unknown>) =>
      postLog(acct, slug, { ownedById: member.id, ...body });
    await log('streak_log', { streakId: streak.id, activityAt: '2026-11-02T10:00:00Z' });
    await log('streak_log', { streakId: streak.id, activityAt: '2026-11-03T10:00:00Z' });
    await log('streak_log', { streakId: streak.id, activityAt: '2026-11-10T10:00:00Z' });
    await log('streak_log', { streakId: streak.id, activityAt: '2026-11-11T10:00:00Z' });
    await log('challenge_log', { challengeId: challenge.id, activityAt: '2026-11-02T10:00:00Z', activityValue: 10 });
    await log('challenge_log', { challengeId: challenge.id, activityAt: '2026-11-03T10:00:00Z', activityValue: 95 });
    await log('challenge_log', { challengeId: challenge.id, activityAt: '2026-12-02T10:00:00Z', activityValue: 10 });
    await log('mission_log', { missionId: mission.id, activityId: 'a', activityAt: '2026-12-01T10:00:00Z' });
    await log('mission_log', { missionId: mission.id, activityId: 'b', activityAt: '2026-12-01T11:00:00Z' });
    await log('streak_log', { streakId: streak.id, activityAt: '2026-12-01T10:00:00Z' });
    await log('mission_log', {
      missionId: (
        await create(acct, 'mission', {
          name: 'Fail',
          status: 'live',
          tasks: [
            { name: 'a', activityId: 'a', targetValue: 1 },
            { name: 'b', activityId: 'b', targetValue: 1 },
          ],
        })
      ).id,
      activityId: 'a',
      activityAt: '2026-12-01T10:00:00Z',
    });
    // The new streak progress (week 49) is warned, then broken; the December challenge window likewise; the daily mission fails.
    await sweep('2026-12-06T20:00:00Z');
    await sweep('2026-12-31T00:00:00Z');
    await sweep('2027-01-01T00:00:00Z');

    const events = await eventsOf(app, member.id);
    const seen = new Set<string>();
    for (const e of events) {
      if (seen.has(e.event_code)) continue;
      seen.add(e.event_code);
      sameShape(e.payload, samplePayload(e.event_code as EventCode, NOW, 'en'), e.event_code);
    }
    // Every kind of payload is covered: log-driven and sweep-driven, for streaks, challenges and missions.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        'challenge_progress_completed',
        'challenge_progress_failed',
        'challenge_progress_in_progress',
        'challenge_progress_milestone_completed',
        'challenge_progress_to_be_failed',
        'mission_progress_completed',
        'mission_progress_failed',
        'mission_progress_in_progress',
        'streak_progress_broken',
        'streak_progress_completed',
        'streak_progress_in_progress',
        'streak_progress_milestone_completed',
        'streak_progress_to_be_broken',
      ]),
    );
  });
});
