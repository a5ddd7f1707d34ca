import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  // Every activityAt below is before this instant, so the 5-minute future check never interferes.
  app.running.services.records.now = () => new Date('2027-06-01T00:00:00Z');
});
afterAll(() => app.close());

let seq = 0;
const post = (body: Record<string, unknown>) => acct.api.post('/schema/mission_log/record', { uniqueIdentifier: `m-${++seq}`, ...body });

async function log(body: Record<string, unknown>): Promise<any> {
  return accepted(post(body));
}

async function member(externalId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await accepted(acct.api.post('/schema/account_user/record', { externalId, ...extra }))).id;
}

async function mission(body: Record<string, unknown>): Promise<any> {
  return accepted(acct.api.post('/schema/mission/record', { name: `M${++seq}`, ...body }));
}

/** A live reward without codes, for a mission to give. */
const aReward = () =>
  accepted(
    acct.api.post('/schema/reward/record', {
      name: `R${++seq}`,
      description: 'd',
      discountType: 'percentage',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
    }),
  );

const twoTasks = [
  { name: 'Visit', activityId: 'visit', targetValue: 1 },
  { name: 'Share', activityId: 'share', targetValue: 1 },
];

/**
 * Task progress in the order of the mission's tasks. The API does not promise an order for
 * `taskProgresses` (a progress's tasks are created at one instant), so tests look them up by task.
 */
function byTask(
  taskProgresses: any[],
  tasks: { id: string }[],
  pick: (t: any) => unknown = (t) => [t.currentProgressValue, t.taskProgressStatus],
): unknown[] {
  expect(taskProgresses).toHaveLength(tasks.length);
  return tasks.map((task) => pick(taskProgresses.find((t) => t.taskId === task.id)));
}

const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });

async function eventsOf(memberId: string): Promise<any[]> {
  const res = await acct.api.get('/schema/event_log/record', {
    filters: eq('ownedById', memberId),
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    limit: '1000',
  });
  return res.body.data;
}

async function withEvents<T>(memberId: string, act: () => Promise<T>): Promise<{ result: T; codes: string[]; events: any[] }> {
  const before = (await eventsOf(memberId)).length;
  const result = await act();
  const events = (await eventsOf(memberId)).slice(before);
  return { result, codes: events.map((e) => e.eventCode), events };
}

async function progressesOf(memberId: string, missionId: string, client: Client = acct.api): Promise<any[]> {
  return accepted(
    client.get('/schema/mission_progress/record', {
      filters: { operator: 'and', conditions: [eq('missionId', missionId), eq('ownedById', memberId)] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    }),
  );
}

describe('mission logs', () => {
  it('count tasks by activityId, cross milestones by completed tasks, and complete with the reward', async () => {
    const reward = (
      await acct.api.post('/schema/reward/record', {
        name: 'Done',
        description: 'd',
        discountType: 'percentage',
        discountValue: 20,
        rewardExpiryType: 'no_expiry',
      })
    ).body.data;
    const mReward = (
      await acct.api.post('/schema/reward/record', {
        name: 'Half',
        description: 'd',
        discountType: 'percentage',
        discountValue: 5,
        rewardExpiryType: 'no_expiry',
      })
    ).body.data;
    const ms = await mission({
      aggregationPeriod: 'weekly',
      rewardId: reward.id,
      tasks: [
        { name: 'Spend', activityId: 'purchase', aggregationMethod: 'sum', targetValue: 100 },
        { name: 'Review', activityId: 'review', targetValue: 2 },
        { name: 'Share', activityId: 'share', targetValue: 1 },
      ],
    });
    const [spend, review] = ms.tasks as [{ id: string }, { id: string }, { id: string }];
    const one = (
      await acct.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'mission',
        linkedSchemaRecordId: ms.id,
        name: 'One',
        description: 'd',
        milestoneTargetValue: 1,
        status: 'live',
        rewardId: mReward.id,
      })
    ).body.data;
    const two = (
      await acct.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'mission',
        linkedSchemaRecordId: ms.id,
        name: 'Two',
        description: 'd',
        milestoneTargetValue: 2,
        status: 'live',
      })
    ).body.data;
    const m = await member('tasker');
    const send = (activityId: string, activityAt: string, extra: Record<string, unknown> = {}) =>
      withEvents(m, () => log({ missionId: ms.id, ownedById: m, activityId, activityAt, ...extra }));

    const stray = await send('unknown', '2026-12-01T09:00:00Z');
    expect(stray.result).toMatchObject({ isAggregated: false, missionProgress: null, taskProgress: [], rewardLog: null });
    expect(stray.codes).toEqual([]);
    expect(await progressesOf(m, ms.id)).toEqual([]);

    const r1 = await send('review', '2026-12-01T10:00:00Z');
    expect(r1.result.isAggregated).toBe(true);
    expect(r1.result.missionProgress).toMatchObject({
      missionId: ms.id,
      ownedById: m,
      missionProgressStatus: 'in_progress',
      uniqueIdentifier: `${ms.id}:${m}`,
      missionStartedAt: '2026-12-01T10:00:00.000Z',
      missionToBeFailedAt: '2026-12-08T10:00:00.000Z',
      isMissionToBeFailedProcessed: false,
    });
    expect(byTask(r1.result.missionProgress.taskProgresses, ms.tasks)).toEqual([
      [0, 'in_progress'],
      [1, 'in_progress'],
      [0, 'in_progress'],
    ]);
    expect(r1.result.taskProgress).toHaveLength(1);
    expect(r1.result.taskProgress[0]).toMatchObject({
      taskId: review.id,
      currentProgressValue: 1,
      targetValue: 2,
      taskProgressStatus: 'in_progress',
    });
    expect(r1.result.nextMilestone.id).toBe(one.id);
    expect(r1.codes).toEqual(['mission_progress_in_progress']);

    const r2 = await send('review', '2026-12-02T10:00:00Z');
    expect(r2.result.taskProgress[0]).toMatchObject({
      taskId: review.id,
      currentProgressValue: 2,
      taskProgressStatus: 'completed',
      // When the completing log happened, as the run's own completion is.
      completedAt: '2026-12-02T10:00:00.000Z',
    });
    expect(r2.result.achievedMilestone.id).toBe(one.id);
    expect(r2.result.achievedMilestoneRewardLog).toMatchObject({ rewardId: mReward.id, milestoneId: one.id, ownedById: m });
    expect(r2.result.nextMilestone.id).toBe(two.id);
    expect(r2.codes).toEqual(['mission_progress_milestone_completed']);

    const missing = await post({ missionId: ms.id, ownedById: m, activityId: 'purchase', activityAt: '2026-12-02T11:00:00Z' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].field).toBe('activityValue');

    const p1 = await send('purchase', '2026-12-03T10:00:00Z', { activityValue: 60 });
    expect(p1.result.taskProgress[0]).toMatchObject({ taskId: spend.id, currentProgressValue: 60, taskProgressStatus: 'in_progress' });
    expect(p1.codes).toEqual(['mission_progress_in_progress']);
    const p2 = await send('purchase', '2026-12-03T11:00:00Z', { activityValue: 50 });
    expect(p2.result.taskProgress[0]).toMatchObject({ currentProgressValue: 110, taskProgressStatus: 'completed' });
    expect(p2.result.achievedMilestone.id).toBe(two.id);
    expect(p2.result.achievedMilestoneRewardLog).toBeNull();
    expect(p2.codes).toEqual(['mission_progress_milestone_completed']);

    const s1 = await send('share', '2026-12-04T10:00:00Z');
    expect(s1.result.missionProgress).toMatchObject({
      missionProgressStatus: 'completed',
      missionCompletedAt: '2026-12-04T10:00:00.000Z',
      missionFailedAt: null,
    });
    expect(s1.result.rewardLog).toMatchObject({
      rewardId: reward.id,
      milestoneId: null,
      ownedById: m,
      linkedSchemaSlug: 'mission',
      linkedSchemaRecordId: ms.id,
    });
    expect(s1.result.achievedMilestone).toBeNull();
    expect(s1.codes).toEqual(['mission_progress_completed']);

    // Not repeatable: nothing more for this member, inside the window or after it.
    for (const at of ['2026-12-05T10:00:00Z', '2027-01-20T10:00:00Z']) {
      const more = await send('share', at);
      expect(more.result).toMatchObject({ isAggregated: false, missionProgress: null, rewardLog: null });
      expect(more.codes).toEqual([]);
    }
    const [stored] = await progressesOf(m, ms.id);
    expect(byTask(stored.taskProgresses, ms.tasks)).toEqual([
      [110, 'completed'],
      [2, 'completed'],
      [1, 'completed'],
    ]);
    expect(await progressesOf(m, ms.id)).toHaveLength(1);
  });

  it('a completing log that also crosses a rewarded milestone carries both reward logs', async () => {
    const rewardIds: string[] = [];
    for (const name of ['All', 'Last']) {
      rewardIds.push(
        (
          await acct.api.post('/schema/reward/record', {
            name,
            description: 'd',
            discountType: 'percentage',
            discountValue: 5,
            rewardExpiryType: 'no_expiry',
          })
        ).body.data.id,
      );
    }
    const ms = await mission({ aggregationPeriod: 'weekly', rewardId: rewardIds[0], tasks: twoTasks });
    const top = (
      await acct.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'mission',
        linkedSchemaRecordId: ms.id,
        name: 'Both',
        description: 'd',
        milestoneTargetValue: 2,
        status: 'live',
        rewardId: rewardIds[1],
      })
    ).body.data;
    const m = await member('both-rewards');
    await log({ missionId: ms.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z' });
    const last = await withEvents(m, () =>
      log({ missionId: ms.id, ownedById: m, activityId: 'share', activityAt: '2026-12-01T11:00:00Z' }),
    );
    expect(last.result.achievedMilestone.id).toBe(top.id);
    expect(last.result.achievedMilestoneRewardLog).toMatchObject({ rewardId: rewardIds[1], milestoneId: top.id });
    expect(last.result.rewardLog).toMatchObject({ rewardId: rewardIds[0], milestoneId: null });
    expect(last.codes).toEqual(['mission_progress_milestone_completed', 'mission_progress_completed']);
  });

  it('sets missionToBeFailedAt to start + 1 day, 7 days or 1 calendar month in the member zone', async () => {
    const m = await member('windows');
    const expectEnd = async (aggregationPeriod: string, memberId: string, start: string, end: string) => {
      const ms = await mission({ aggregationPeriod, tasks: twoTasks });
      const d = await log({ missionId: ms.id, ownedById: memberId, activityId: 'visit', activityAt: start });
      expect(d.missionProgress, aggregationPeriod).toMatchObject({
        missionStartedAt: new Date(start).toISOString(),
        missionToBeFailedAt: end,
      });
    };
    await expectEnd('daily', m, '2026-12-01T10:00:00Z', '2026-12-02T10:00:00.000Z');
    await expectEnd('weekly', m, '2026-12-01T10:00:00Z', '2026-12-08T10:00:00.000Z');
    await expectEnd('monthly', m, '2026-12-15T10:00:00Z', '2027-01-15T10:00:00.000Z');
    // Reading: a calendar month from 31 January ends on the last day of February.
    await expectEnd('monthly', m, '2027-01-31T10:00:00Z', '2027-02-28T10:00:00.000Z');
    // Reading: "1 day" is a local calendar day, so across the New York spring-forward it lasts 23 hours.
    const ny = await member('windows-ny', { timezone: 'America/New_York' });
    await expectEnd('daily', ny, '2027-03-13T15:00:00Z', '2027-03-14T14:00:00.000Z');
  });

  it('a log after the window fails the old progress first and starts a new one', async () => {
    const ms = await mission({ aggregationPeriod: 'daily', tasks: twoTasks });
    const m = await member('late-again');
    const first = await log({ missionId: ms.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z' });
    // A log inside the window before the start is not part of it.
    const early = await log({ missionId: ms.id, ownedById: m, activityId: 'share', activityAt: '2026-12-01T09:00:00Z' });
    expect(early).toMatchObject({ isAggregated: false, missionProgress: null });

    const next = await withEvents(m, () =>
      log({ missionId: ms.id, ownedById: m, activityId: 'share', activityAt: '2026-12-02T10:00:00Z' }),
    );
    expect(next.codes).toEqual(['mission_progress_failed', 'mission_progress_in_progress']);
    const [failedEvent, newEvent] = next.events;
    expect(failedEvent.linkedSchemaRecordId).toBe(first.missionProgress.id);
    expect(failedEvent.payload.missionProgress).toMatchObject({
      id: first.missionProgress.id,
      missionProgressStatus: 'failed',
      missionFailedAt: '2026-12-02T10:00:00.000Z',
      isMissionToBeFailedProcessed: true,
    });
    expect(newEvent.linkedSchemaRecordId).toBe(next.result.missionProgress.id);
    expect(next.result.missionProgress).toMatchObject({
      missionProgressStatus: 'in_progress',
      missionStartedAt: '2026-12-02T10:00:00.000Z',
      missionToBeFailedAt: '2026-12-03T10:00:00.000Z',
    });
    expect(next.result.missionProgress.id).not.toBe(first.missionProgress.id);
    // The new progress starts from zero: only its own log counted.
    expect(byTask(next.result.missionProgress.taskProgresses, ms.tasks, (t) => t.currentProgressValue)).toEqual([0, 1]);

    // A late log for the failed window changes nothing.
    const late = await withEvents(m, () =>
      log({ missionId: ms.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-01T12:00:00Z' }),
    );
    expect(late.result).toMatchObject({ isAggregated: false, missionProgress: null });
    expect(late.codes).toEqual([]);

    expect((await progressesOf(m, ms.id)).map((p) => [p.missionProgressStatus, p.missionFailedAt])).toEqual([
      ['failed', '2026-12-02T10:00:00.000Z'],
      ['in_progress', null],
    ]);
  });

  it('a repeatable mission starts a new progress after completion', async () => {
    const ms = await mission({ aggregationPeriod: 'weekly', isRepeatable: true, tasks: twoTasks });
    const m = await member('repeater');
    const send = (activityId: string, activityAt: string) =>
      withEvents(m, () => log({ missionId: ms.id, ownedById: m, activityId, activityAt }));
    const a = await send('visit', '2026-12-01T10:00:00Z');
    const b = await send('share', '2026-12-01T11:00:00Z');
    expect(b.result.missionProgress).toMatchObject({ id: a.result.missionProgress.id, missionProgressStatus: 'completed' });
    expect(b.codes).toEqual(['mission_progress_completed']);
    // Reading: a log from before the completion belongs to the finished run and is not counted.
    const before = await send('visit', '2026-12-01T10:30:00Z');
    expect(before.result.isAggregated).toBe(false);
    const again = await send('visit', '2026-12-01T12:00:00Z');
    expect(again.result.missionProgress).toMatchObject({
      missionProgressStatus: 'in_progress',
      missionStartedAt: '2026-12-01T12:00:00.000Z',
    });
    expect(again.result.missionProgress.id).not.toBe(a.result.missionProgress.id);
    expect(again.codes).toEqual(['mission_progress_in_progress']);
    expect((await progressesOf(m, ms.id)).map((p) => p.missionProgressStatus)).toEqual(['completed', 'in_progress']);
  });

  it('a run started before its tasks were edited counts the tasks as they are: one added starts at 0, one removed counts no more', async () => {
    const reward = await aReward();
    const ms = await mission({ aggregationPeriod: 'weekly', rewardId: reward.id, tasks: twoTasks });
    const [visit, share] = ms.tasks;
    const added = await member('edited-added');
    const removed = await member('edited-removed');
    await log({ missionId: ms.id, ownedById: added, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z' });
    await log({ missionId: ms.id, ownedById: removed, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z' });

    // A third task: the run started before it completes only with it.
    const three = await accepted(
      acct.api.patch(`/schema/mission/record/${ms.id}`, {
        tasks: [
          { ...twoTasks[0], id: visit.id },
          { ...twoTasks[1], id: share.id },
          { name: 'Review', activityId: 'review', targetValue: 1 },
        ],
      }),
    );
    const shared = await log({ missionId: ms.id, ownedById: added, activityId: 'share', activityAt: '2026-12-01T11:00:00Z' });
    expect(shared.missionProgress.missionProgressStatus).toBe('in_progress');
    const reviewed = await log({ missionId: ms.id, ownedById: added, activityId: 'review', activityAt: '2026-12-01T12:00:00Z' });
    expect(reviewed.missionProgress).toMatchObject({ missionProgressStatus: 'completed' });
    expect(reviewed.rewardLog).toMatchObject({ rewardId: reward.id });
    expect(
      byTask(
        reviewed.missionProgress.taskProgresses.filter((t: any) => t.taskId !== null),
        three.tasks,
      ),
    ).toEqual([
      [1, 'completed'],
      [1, 'completed'],
      [1, 'completed'],
    ]);

    // The visit task gone (the other member had done it), sharing asked twice: the second share completes what is left.
    await accepted(acct.api.patch(`/schema/mission/record/${ms.id}`, { tasks: [{ ...twoTasks[1], id: share.id, targetValue: 2 }] }));
    const once = await log({ missionId: ms.id, ownedById: removed, activityId: 'share', activityAt: '2026-12-01T12:30:00Z' });
    expect(once.missionProgress.missionProgressStatus).toBe('in_progress');
    expect(once.taskProgress).toEqual([expect.objectContaining({ targetValue: 2, currentProgressValue: 1 })]);
    const last = await log({ missionId: ms.id, ownedById: removed, activityId: 'share', activityAt: '2026-12-01T13:00:00Z' });
    expect(last.missionProgress).toMatchObject({ missionProgressStatus: 'completed' });
    expect(last.rewardLog).toMatchObject({ rewardId: reward.id });
  });

  it("a target lowered below what a run reached completes that task with the run's next log, its milestone and the mission with it", async () => {
    const reward = await aReward();
    const tasks = [
      { name: 'Visit', activityId: 'visit', targetValue: 5 },
      { name: 'Share', activityId: 'share', targetValue: 1 },
    ];
    const ms = await mission({ aggregationPeriod: 'weekly', rewardId: reward.id, tasks });
    const [visit, share] = ms.tasks;
    await accepted(
      acct.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'mission',
        linkedSchemaRecordId: ms.id,
        name: 'One task',
        description: 'd',
        milestoneTargetValue: 1,
        status: 'live',
      }),
    );
    const m = await member('lowered');
    for (const hour of ['10', '11', '12'])
      await log({ missionId: ms.id, ownedById: m, activityId: 'visit', activityAt: `2026-12-01T${hour}:00:00Z` });

    const lowered = await accepted(
      acct.api.patch(`/schema/mission/record/${ms.id}`, {
        tasks: [
          { ...tasks[0], id: visit.id, targetValue: 2 },
          { ...tasks[1], id: share.id },
        ],
      }),
    );
    const shared = await withEvents(m, () =>
      log({ missionId: ms.id, ownedById: m, activityId: 'share', activityAt: '2026-12-01T13:00:00Z' }),
    );
    expect(shared.result.missionProgress).toMatchObject({
      missionProgressStatus: 'completed',
      missionCompletedAt: '2026-12-01T13:00:00.000Z',
    });
    expect(shared.result.rewardLog).toMatchObject({ rewardId: reward.id });
    expect(shared.codes).toEqual(expect.arrayContaining(['mission_progress_milestone_completed', 'mission_progress_completed']));
    const [progress] = await progressesOf(m, ms.id);
    expect(byTask(progress.taskProgresses, lowered.tasks, (t) => [t.currentProgressValue, t.targetValue, t.taskProgressStatus])).toEqual([
      [3, 2, 'completed'],
      [1, 1, 'completed'],
    ]);
  });

  it('a log after the window of a run an edit left with every task reached completes that run first, as the scheduler would have', async () => {
    const reward = await aReward();
    const once = await mission({ aggregationPeriod: 'daily', rewardId: reward.id, tasks: twoTasks });
    const again = await mission({ aggregationPeriod: 'daily', rewardId: reward.id, tasks: twoTasks, isRepeatable: true });
    const m = await member('edited-late');
    for (const ms of [once, again]) {
      await log({ missionId: ms.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z' });
      // Sharing is dropped: the run has done every task left.
      await accepted(acct.api.patch(`/schema/mission/record/${ms.id}`, { tasks: [{ ...twoTasks[0], id: ms.tasks[0].id }] }));
    }
    // The next day, before any sweep: the run is completed as of its window's end, with its reward.
    const late = await withEvents(m, () =>
      post({ missionId: once.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-02T11:00:00Z' }),
    );
    expect(late.result.status).toBe(200);
    expect(late.result.body.data).toMatchObject({ isAggregated: false, notAggregatedReason: 'mission_completed' });
    expect(late.codes).toEqual(['reward_log_issued', 'mission_progress_completed']);
    const [run] = await progressesOf(m, once.id);
    expect(run).toMatchObject({ missionProgressStatus: 'completed', missionCompletedAt: '2026-12-02T10:00:00.000Z' });
    expect(late.events[0].payload.rewardLog).toMatchObject({
      rewardId: reward.id,
      rewardLogStatus: 'issued',
      linkedSchemaRecordId: once.id,
    });

    // A repeatable mission's log starts the next run beside it.
    const next = await withEvents(m, () =>
      log({ missionId: again.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-02T11:00:00Z' }),
    );
    expect(next.codes).toEqual(['reward_log_issued', 'mission_progress_completed', 'mission_progress_completed']);
    expect(next.result.missionProgress).toMatchObject({ missionProgressStatus: 'completed', missionStartedAt: '2026-12-02T11:00:00.000Z' });
    expect((await progressesOf(m, again.id)).map((p) => [p.missionProgressStatus, p.missionCompletedAt])).toEqual([
      ['completed', '2026-12-02T10:00:00.000Z'],
      ['completed', '2026-12-02T11:00:00.000Z'],
    ]);
  });

  it('lists progress by missionId with taskProgresses; an end user sees only their own', async () => {
    const ms = await mission({ aggregationPeriod: 'weekly', tasks: twoTasks });
    const other = await mission({ aggregationPeriod: 'weekly', tasks: twoTasks });
    const tokens: Record<string, { memberId: string; client: Client }> = {};
    for (const externalId of ['reader-a', 'reader-b']) {
      const minted = await acct.api.post('/enduser/token', { externalId });
      expect(minted.status).toBe(200);
      tokens[externalId] = {
        memberId: minted.body.data.memberId,
        client: app.anon.with({ 'x-enduser-access-token': minted.body.data.accessToken, 'x-account-id': acct.accountId }),
      };
      await log({ missionId: ms.id, ownedById: minted.body.data.memberId, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z' });
      await log({ missionId: other.id, ownedById: minted.body.data.memberId, activityId: 'share', activityAt: '2026-12-01T10:00:00Z' });
    }
    const a = tokens['reader-a']!;
    const b = tokens['reader-b']!;
    const filters = eq('missionId', ms.id);

    const all = await acct.api.get('/schema/mission_progress/record', { filters });
    expect(all.status).toBe(200);
    expect(all.body.data.map((p: any) => p.ownedById).sort()).toEqual([a.memberId, b.memberId].sort());
    for (const p of all.body.data) {
      expect(p.missionId).toBe(ms.id);
      expect(byTask(p.taskProgresses, ms.tasks)).toEqual([
        [1, 'completed'],
        [0, 'in_progress'],
      ]);
    }

    const mine = await a.client.get('/schema/mission_progress/record', { filters });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ ownedById: a.memberId, missionId: ms.id, missionProgressStatus: 'in_progress' });
    expect(byTask(mine.body.data[0].taskProgresses, ms.tasks)).toEqual([
      [1, 'completed'],
      [0, 'in_progress'],
    ]);
    expect((await a.client.get('/schema/mission_progress/record')).body.data.map((p: any) => p.ownedById)).toEqual([
      a.memberId,
      a.memberId,
    ]);

    const bsId = all.body.data.find((p: any) => p.ownedById === b.memberId).id;
    expect((await a.client.get(`/schema/mission_progress/record/${bsId}`)).status).toBe(404);
    expect((await b.client.get(`/schema/mission_progress/record/${bsId}`)).status).toBe(200);
  });
});
