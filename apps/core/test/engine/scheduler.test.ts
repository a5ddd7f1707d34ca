import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountInfo } from '../../src/auth/authenticate.js';
import { buildContext, type EventInput } from '../../src/notifications/render.js';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import type { AccountUserRow } from '../../src/schema/members.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
const GRACE = 900;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'Europe/Paris' });
  app.running.services.records.now = () => new Date('2027-03-01T00:00:00Z');
});
afterAll(() => app.close());

const sweep = (at: string) => runSweeps(app.running.services.records, new Date(at), GRACE);
let seq = 0;
const post = (slug: string, body: Record<string, unknown>) =>
  acct.api.post(`/schema/${slug}/record`, { activityId: 'visit', uniqueIdentifier: `s-${++seq}`, ...body });
/** A record made by the API key, as it answers it. */
const create = async (slug: string, body: Record<string, unknown>) => (await acct.api.post(`/schema/${slug}/record`, body)).body.data;
/** A daily mission of `tasks` whose completion gives the reward made of `reward`. */
async function missionGiving(
  name: string,
  reward: Record<string, unknown>,
  tasks: { name: string; activityId: string; targetValue: number }[],
) {
  const made = await create('reward', { name, description: 'd', rewardExpiryType: 'no_expiry', ...reward });
  return { reward: made, mission: await create('mission', { name, aggregationPeriod: 'daily', rewardId: made.id, tasks }) };
}

/**
 * A run of a two-task mission (a and b) with a done, then the mission edited to task a alone (and
 * `patch`): the run is reached, though no log completed it.
 */
async function runLeftReached(name: string, reward: Record<string, unknown>, externalId: string, activityAt: string, patch = {}) {
  const tasks = [
    { name: 'a', activityId: 'a', targetValue: 1 },
    { name: 'b', activityId: 'b', targetValue: 1 },
  ];
  const { mission } = await missionGiving(name, reward, tasks);
  const log = (await post('mission_log', { missionId: mission.id, ownedBy: { externalId }, activityId: 'a', activityAt })).body.data;
  await acct.api.patch(`/schema/mission/record/${mission.id}`, { tasks: [{ ...tasks[0], id: mission.tasks[0].id }], ...patch });
  return log;
}

async function eventsOf(memberId: string) {
  const res = await acct.api.get('/schema/event_log/record', {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
  });
  return res.body.data as { eventCode: string; payload: any }[];
}

describe('scheduler sweeps', () => {
  it('warns once before a streak deadline, then breaks it after the grace', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'S', toBeBrokenWarningHours: 4 })).body.data;
    await acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'M',
      description: 'd',
      milestoneTargetValue: 5,
      status: 'live',
    });
    // Member in Tokyo: day 2026-12-01 there ends at 2026-12-01T15:00Z; the required day 12-02 ends 12-02T15:00Z.
    const first = (
      await post('streak_log', {
        streakId: streak.id,
        ownedBy: { externalId: 'tokyo', timezone: 'Asia/Tokyo' },
        activityAt: '2026-12-01T01:00:00Z',
      })
    ).body.data;
    expect(first.streakProgress.streakToBeBrokenAt).toBe('2026-12-02T15:00:00.000Z');
    const member = first.ownedById;

    expect((await sweep('2026-12-02T10:59:00Z'))['streak warnings']).toBe(0);
    expect((await sweep('2026-12-02T11:00:00Z'))['streak warnings']).toBe(1);
    expect((await sweep('2026-12-02T12:00:00Z'))['streak warnings']).toBe(0);
    expect((await sweep('2026-12-02T15:14:59Z'))['streak breaks']).toBe(0);
    expect((await sweep('2026-12-02T15:15:00Z'))['streak breaks']).toBe(1);

    const events = await eventsOf(member);
    expect(events.map((e) => e.eventCode)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_to_be_broken',
      'streak_progress_broken',
    ]);
    const broken = events[2]!.payload.streakProgress;
    expect(broken).toMatchObject({ streakProgressStatus: 'broken', streakBrokenAt: '2026-12-02T15:00:00.000Z', currentProgressValue: 1 });
    expect(broken.streak).toMatchObject({ id: streak.id, name: 'S' });
    expect(broken.nextMilestone).toMatchObject({ milestoneTargetValue: 5 });

    const late = (await post('streak_log', { streakId: streak.id, ownedById: member, activityAt: '2026-12-02T14:00:00Z' })).body.data;
    expect(late.isAggregated).toBe(false);
  });

  it('warns only where a log can still save the run: not of a paused streak or challenge, whose logs do not count', async () => {
    const own = await app.createAccount({ timezone: 'Europe/Paris' });
    const streak = (await own.api.post('/schema/streak/record', { name: 'Paused S', toBeBrokenWarningHours: 4 })).body.data;
    const challenge = (
      await own.api.post('/schema/challenge/record', {
        name: 'Paused C',
        aggregationPeriod: 'weekly',
        aggregationMethod: 'sum',
        completionTargetValue: 100,
        toBeFailedWarningHours: 24,
      })
    ).body.data;
    const log = (slug: string, body: Record<string, unknown>) =>
      own.api.post(`/schema/${slug}/record`, {
        activityId: 'visit',
        uniqueIdentifier: `p-${++seq}`,
        ownedBy: { externalId: 'paused' },
        activityAt: '2026-12-08T09:00:00Z',
        ...body,
      });
    await log('streak_log', { streakId: streak.id });
    await log('challenge_log', { challengeId: challenge.id, activityValue: 5 });
    expect((await own.api.patch(`/schema/streak/record/${streak.id}`, { status: 'paused' })).status).toBe(200);
    expect((await own.api.patch(`/schema/challenge/record/${challenge.id}`, { status: 'paused' })).status).toBe(200);
    // Paris: the streak's next day ends 2026-12-09T23:00Z (warned from 19:00Z), the week 2026-12-13T23:00Z (from 12-12T23:00Z).
    expect((await sweep('2026-12-09T20:00:00Z'))['streak warnings']).toBe(0);
    // Their deadlines still close them.
    const later = await sweep('2026-12-13T00:00:00Z');
    expect([later['challenge warnings'], later['streak breaks']]).toEqual([0, 1]);
    expect((await sweep('2026-12-14T00:00:00Z'))['challenge failures']).toBe(1);
  });

  it('warns and fails challenge windows', async () => {
    const challenge = (
      await acct.api.post('/schema/challenge/record', {
        name: 'C',
        aggregationPeriod: 'weekly',
        aggregationMethod: 'sum',
        completionTargetValue: 100,
        toBeFailedWarningHours: 24,
      })
    ).body.data;
    const log = (
      await post('challenge_log', {
        challengeId: challenge.id,
        ownedBy: { externalId: 'paris' },
        activityAt: '2026-12-01T10:00:00Z',
        activityValue: 40,
      })
    ).body.data;
    // The ISO week of 2026-12-01 ends Monday 2026-12-07 00:00 in Paris = 2026-12-06T23:00Z.
    expect(log.challengeProgress).toMatchObject({
      periodKey: '2026-W49',
      challengeToBeFailedAt: '2026-12-06T23:00:00.000Z',
      currentProgressValue: 40,
    });
    expect((await sweep('2026-12-05T23:00:00Z'))['challenge warnings']).toBe(1);
    expect((await sweep('2026-12-06T23:15:00Z'))['challenge failures']).toBe(1);
    const codes = (await eventsOf(log.ownedById)).map((e) => e.eventCode);
    expect(codes).toEqual(['challenge_progress_in_progress', 'challenge_progress_to_be_failed', 'challenge_progress_failed']);
  });

  it('fails missions at the end of their window', async () => {
    const mission = (
      await acct.api.post('/schema/mission/record', {
        name: 'M',
        aggregationPeriod: 'daily',
        tasks: [
          { name: 'a', activityId: 'a', targetValue: 1 },
          { name: 'b', activityId: 'b', targetValue: 1 },
        ],
      })
    ).body.data;
    const log = (
      await post('mission_log', {
        missionId: mission.id,
        ownedBy: { externalId: 'missioner' },
        activityId: 'a',
        activityAt: '2026-12-01T10:00:00Z',
      })
    ).body.data;
    expect(log.missionProgress.missionToBeFailedAt).toBe('2026-12-02T10:00:00.000Z');
    expect((await sweep('2026-12-02T10:10:00Z'))['mission failures']).toBe(0);
    expect((await sweep('2026-12-02T10:15:00Z'))['mission failures']).toBe(1);
    const progress = (await acct.api.get(`/schema/mission_progress/record/${log.missionProgress.id}`)).body.data;
    expect(progress).toMatchObject({
      missionProgressStatus: 'failed',
      missionFailedAt: '2026-12-02T10:00:00.000Z',
      isMissionToBeFailedProcessed: true,
    });
  });

  it('completes at the end of its window, instead of failing, a run whose every task was reached once its mission was edited', async () => {
    const tasks = [
      { name: 'a', activityId: 'a', targetValue: 4 },
      { name: 'b', activityId: 'b', targetValue: 1 },
      { name: 'c', activityId: 'c', targetValue: 1 },
    ];
    const { reward, mission } = await missionGiving(
      'Edited',
      {
        discountType: 'percentage',
        discountValue: 5,
        handleCoupon: true,
        handleCouponAutoGeneration: true,
        rewardExpiryType: 'absolute',
        rewardExpiryAt: '2027-03-31T20:00:00Z',
      },
      tasks,
    );
    const milestone = await create('milestone', {
      linkedSchemaSlug: 'mission',
      linkedSchemaRecordId: mission.id,
      name: 'Two tasks',
      description: 'd',
      milestoneTargetValue: 2,
      rewardId: reward.id,
      status: 'live',
    });
    const run = async (externalId: string, logs: string[]) => {
      const posted: any[] = [];
      for (const [i, activityId] of logs.entries())
        posted.push(
          (await post('mission_log', { missionId: mission.id, ownedBy: { externalId }, activityId, activityAt: `2026-12-05T10:0${i}:00Z` }))
            .body.data,
        );
      return { ...(posted.at(-1).missionProgress as { id: string; ownedById: string }), logIds: posted.map((l) => l.id as string) };
    };
    // Three of a, and b: c is removed and a's target lowered to 2, so every task left is reached.
    const reached = await run('edited-reached', ['a', 'a', 'a', 'b']);
    // One of a, and b: a is not reached at 2.
    const short = await run('edited-short', ['a', 'b']);
    const [a, b] = mission.tasks;
    await acct.api.patch(`/schema/mission/record/${mission.id}`, {
      tasks: [
        { ...tasks[0], id: a.id, targetValue: 2 },
        { ...tasks[1], id: b.id },
      ],
    });
    expect((await sweep('2026-12-06T10:20:00Z'))['mission failures']).toBe(2);

    const done = (await acct.api.get(`/schema/mission_progress/record/${reached.id}`)).body.data;
    expect(done).toMatchObject({ missionProgressStatus: 'completed', missionCompletedAt: '2026-12-06T10:00:00.000Z' });
    const taskOf = (id: string) => done.taskProgresses.find((t: any) => t.taskId === id);
    expect(taskOf(a.id)).toMatchObject({
      currentProgressValue: 3,
      targetValue: 2,
      taskProgressStatus: 'completed',
      completedAt: '2026-12-06T10:00:00.000Z',
    });
    const logs = (
      await acct.api.get('/schema/reward_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: reached.ownedById }] },
      })
    ).body.data;
    // The milestone of two tasks is crossed (only b counted before a's target was lowered), and the mission's reward given.
    expect(logs.map((l: any) => [l.milestoneId ?? 'mission', l.rewardLogStatus]).sort()).toEqual(
      [
        [milestone.id, 'issued'],
        ['mission', 'issued'],
      ].sort(),
    );
    const codes = (await eventsOf(reached.ownedById)).map((e) => e.eventCode);
    expect(codes.slice(-4)).toEqual([
      'reward_log_issued',
      'reward_log_issued',
      'mission_progress_milestone_completed',
      'mission_progress_completed',
    ]);
    const completedEvent = (await eventsOf(reached.ownedById)).at(-1)!;
    expect(completedEvent.payload.missionProgress).toMatchObject({
      id: reached.id,
      missionProgressStatus: 'completed',
      mission: { id: mission.id },
    });
    // Its reward logs under the keys a log's response gives them, so a message can say till when the reward is valid.
    const missionLog = logs.find((l: any) => !l.milestoneId);
    const milestoneLog = logs.find((l: any) => l.milestoneId);
    expect(completedEvent.payload).toMatchObject({
      rewardLog: { id: missionLog.id, rewardExpiryAt: '2027-03-31T20:00:00.000Z', reward: { id: reward.id } },
      achievedMilestoneRewardLog: { id: milestoneLog.id },
      achievedMilestoneRewardLogs: [{ id: milestoneLog.id }],
    });
    const [eventRow] = await app
      .db('event_log')
      .where({ account_id: acct.accountId, owned_by_id: reached.ownedById, event_code: 'mission_progress_completed' });
    const memberRow = await app.db('account_user').where({ account_id: acct.accountId, id: reached.ownedById }).first();
    const account = {
      id: acct.accountId,
      organizationId: 'o',
      name: 'A',
      timezone: 'Europe/Paris',
      defaultLanguageCode: 'en',
    } satisfies AccountInfo;
    const rendering = buildContext({
      organization: { id: 'o', name: 'O' },
      account,
      member: memberRow as AccountUserRow,
      event: eventRow as EventInput,
      unsubscribeUrl: '',
      points: { currencyName: null, currencyNameOne: null, tiers: new Map() },
    });
    expect((rendering.context.$helpers as Record<string, unknown>).rewardValidTill).toBe('March 31, 2027');

    expect((await acct.api.get(`/schema/mission_progress/record/${short.id}`)).body.data).toMatchObject({
      missionProgressStatus: 'failed',
    });
    expect((await eventsOf(short.ownedById)).at(-1)!.eventCode).toBe('mission_progress_failed');
    // Once: a later sweep finds nothing due.
    expect((await sweep('2026-12-07T10:20:00Z'))['mission failures']).toBe(0);

    // A reversal replays the run's logs on the mission as it is now: one a taken back leaves it
    // reached and completed with its rewards; a second leaves a short of its target, and the run failed.
    const reverse = (id: string) => acct.api.post(`/schema/mission_log/record/${id}/action/reverse`, {});
    const statuses = async () => ({
      run: (await acct.api.get(`/schema/mission_progress/record/${reached.id}`)).body.data.missionProgressStatus,
      rewards: (
        await acct.api.get('/schema/reward_log/record', {
          filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: reached.ownedById }] },
        })
      ).body.data
        .map((l: any) => l.rewardLogStatus)
        .sort(),
    });
    expect((await reverse(reached.logIds[0]!)).status).toBe(200);
    expect(await statuses()).toEqual({ run: 'completed', rewards: ['issued', 'issued'] });
    expect((await reverse(reached.logIds[1]!)).status).toBe(200);
    expect(await statuses()).toEqual({ run: 'failed', rewards: ['revoked', 'revoked'] });
  });

  it('enters the points of a points reward for a run it completes so', async () => {
    const setting = (await acct.api.get('/schema/points_setting/record')).body.data[0];
    expect((await acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' })).status).toBe(200);
    const log = await runLeftReached('Points', { rewardKind: 'points', pointsValue: 40 }, 'edited-points', '2026-12-08T10:00:00Z');
    expect((await sweep('2026-12-09T10:20:00Z'))['mission failures']).toBe(1);
    const member = (await acct.api.get(`/schema/account_user/record/${log.missionProgress.ownedById}`)).body.data;
    expect(member).toMatchObject({ pointsBalance: 40, pointsEarnedInTierWindow: 40 });
    const codes = (await eventsOf(member.id)).map((e) => e.eventCode);
    expect(codes.slice(-3)).toEqual(['points_earned', 'reward_log_issued', 'mission_progress_completed']);
  });

  it('fails a run an edit left reached when its mission is paused at the window’s end, as a paused mission gives nothing', async () => {
    const log = await runLeftReached('Paused', { discountType: 'percentage', discountValue: 5 }, 'edited-paused', '2026-12-11T10:00:00Z', {
      status: 'paused',
    });
    expect((await sweep('2026-12-12T10:20:00Z'))['mission failures']).toBe(1);
    const memberId = log.missionProgress.ownedById;
    expect((await acct.api.get(`/schema/mission_progress/record/${log.missionProgress.id}`)).body.data.missionProgressStatus).toBe(
      'failed',
    );
    expect((await eventsOf(memberId)).map((e) => e.eventCode).slice(-1)).toEqual(['mission_progress_failed']);
    const rewards = await acct.api.get('/schema/reward_log/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
    });
    expect(rewards.body.data).toEqual([]);
  });

  it('processes each due row once when several sweepers race', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Race' })).body.data;
    const members = 120;
    for (let i = 0; i < members; i++) {
      await post('streak_log', { streakId: streak.id, ownedBy: { externalId: `racer-${i}` }, activityAt: '2026-12-10T10:00:00Z' });
    }
    const results = await Promise.all([0, 1, 2, 3].map(() => sweep('2026-12-20T00:00:00Z')));
    expect(results.reduce((n, r) => n + r['streak breaks']!, 0)).toBe(members);
    const broken = await app.db('event_log').where({ account_id: acct.accountId, event_code: 'streak_progress_broken' }).count({ n: '*' });
    // One broken event per racer, plus the Tokyo member's from the first test.
    expect(Number(broken[0]!.n)).toBe(members + 1);
  });
});

describe('a deleted definition', () => {
  it('keeps its runs as they were (history, CONTRACT §6): no sweep breaks, fails or warns them, whatever the kind', async () => {
    const own = await app.createAccount({ timezone: 'Europe/Paris' });
    const make = async (slug: string, body: Record<string, unknown>) => (await own.api.post(`/schema/${slug}/record`, body)).body.data;
    const streak = await make('streak', { name: 'Gone S' });
    const challenge = await make('challenge', { name: 'Gone C', completionTargetValue: 10 });
    const mission = await make('mission', {
      name: 'Gone M',
      aggregationPeriod: 'daily',
      tasks: [{ name: 'a', activityId: 'a', targetValue: 2 }],
    });
    const at = '2027-01-05T10:00:00Z';
    const logged = [
      await make('streak_log', {
        streakId: streak.id,
        ownedBy: { externalId: 'gone' },
        activityId: 'a',
        activityAt: at,
        uniqueIdentifier: 'g1',
      }),
      await make('challenge_log', {
        challengeId: challenge.id,
        ownedBy: { externalId: 'gone' },
        activityId: 'a',
        activityAt: at,
        uniqueIdentifier: 'g2',
      }),
      await make('mission_log', {
        missionId: mission.id,
        ownedBy: { externalId: 'gone' },
        activityId: 'a',
        activityAt: at,
        uniqueIdentifier: 'g3',
      }),
    ];
    for (const [slug, id] of [
      ['streak', streak.id],
      ['challenge', challenge.id],
      ['mission', mission.id],
    ])
      expect((await own.api.delete(`/schema/${slug}/record/${id}`)).status).toBe(204);
    const done = await sweep('2027-03-01T00:00:00Z');
    expect([done['streak breaks'], done['challenge failures'], done['mission failures']]).toEqual([0, 0, 0]);
    const statuses = await Promise.all([
      own.api.get(`/schema/streak_progress/record/${logged[0].streakProgress.id}`),
      own.api.get(`/schema/challenge_progress/record/${logged[1].challengeProgress.id}`),
      own.api.get(`/schema/mission_progress/record/${logged[2].missionProgress.id}`),
    ]);
    expect(
      statuses.map((r) => r.body.data.streakProgressStatus ?? r.body.data.challengeProgressStatus ?? r.body.data.missionProgressStatus),
    ).toEqual(['in_progress', 'in_progress', 'in_progress']);
  });
});

describe('the events sweeps write', () => {
  it('speak the member’s language, as a log’s events do', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Lang', eudTitle: 'Daily visit', toBeBrokenWarningHours: 4 })).body
      .data;
    await acct.api.request('PATCH', `/schema/streak/record/${streak.id}`, {
      body: { eudTitle: 'Visite quotidienne' },
      query: { languageCode: 'fr' },
    });
    const first = (
      await post('streak_log', {
        streakId: streak.id,
        ownedBy: { externalId: 'paris-fr', timezone: 'Europe/Paris', languageCode: 'fr' },
        activityAt: '2027-01-10T09:00:00Z',
      })
    ).body.data;
    // The day after ends at 2027-01-11T23:00Z in Paris: warned four hours before, broken after the grace.
    await sweep('2027-01-11T19:00:00Z');
    await sweep('2027-01-11T23:15:00Z');
    const events = await eventsOf(first.ownedById);
    expect(events.map((e) => [e.eventCode, e.payload.streakLog?.streak?.eudTitle ?? e.payload.streakProgress?.streak?.eudTitle])).toEqual([
      ['streak_progress_non_milestone_completed', 'Visite quotidienne'],
      ['streak_progress_to_be_broken', 'Visite quotidienne'],
      ['streak_progress_broken', 'Visite quotidienne'],
    ]);
  });
});
