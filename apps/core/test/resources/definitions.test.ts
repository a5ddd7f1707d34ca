import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
});
afterAll(() => app.close());

const detailOf = (body: any, field: string) => body.error.details.find((d: any) => d.field === field);

describe('streak', () => {
  it('applies defaults and round-trips through get, patch, list and delete', async () => {
    const created = await acct.api.post('/schema/streak/record', { name: 'Daily visit' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      name: 'Daily visit',
      status: 'live',
      aggregationPeriod: 'daily',
      aggregationMethod: 'count',
      aggregationTargetValue: 1,
      completionTargetValue: null,
      toBeBrokenWarningHours: 4,
      milestones: [],
    });
    const id = created.body.data.id;
    const patched = await acct.api.patch(`/schema/streak/record/${id}`, { aggregationPeriod: 'weekly', completionTargetValue: 8 });
    expect(patched.body.data).toMatchObject({ aggregationPeriod: 'weekly', completionTargetValue: 8 });
    expect(Date.parse(patched.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.data.updatedAt));
    expect((await acct.api.get(`/schema/streak/record/${id}`)).body.data.completionTargetValue).toBe(8);
    expect((await acct.api.delete(`/schema/streak/record/${id}`)).status).toBe(204);
    expect((await acct.api.get(`/schema/streak/record/${id}`)).status).toBe(404);
  });

  it.each([
    [{}, 'name', 'required'],
    [{ name: '' }, 'name', 'too_short'],
    [{ name: 'x'.repeat(257) }, 'name', 'too_long'],
    [{ name: 'a', description: 'x'.repeat(1025) }, 'description', 'too_long'],
    [{ name: 'a', eudTitle: 'x'.repeat(49) }, 'eudTitle', 'too_long'],
    [{ name: 'a', aggregationPeriod: 'yearly' }, 'aggregationPeriod', 'invalid_enum'],
    [{ name: 'a', aggregationMethod: 'avg' }, 'aggregationMethod', 'invalid_enum'],
    [{ name: 'a', aggregationTargetValue: 0 }, 'aggregationTargetValue', 'too_small'],
    [{ name: 'a', completionTargetValue: 1.5 }, 'completionTargetValue', 'invalid_type'],
    [{ name: 'a', status: 'archived' }, 'status', 'invalid_enum'],
    [{ name: 'a', eudIcon: 'not a url' }, 'eudIcon', 'invalid_format'],
    [{ name: 'a', ownedBy: { externalId: 'x' } }, 'ownedBy', 'unknown_field'],
    [{ name: 'a', milestones: [] }, 'milestones', 'read_only'],
    [{ name: 'a', id: '7d419a6f-9c2a-41b9-82fb-a32ad64892a2' }, 'id', 'read_only'],
    [{ name: 42 }, 'name', 'invalid_type'],
  ])('refuses %j with %s %s and writes nothing', async (body, field, code) => {
    const before = (await acct.api.get('/schema/streak/record', { fetchTotalCount: 'true' })).body.paging.total;
    const res = await acct.api.post('/schema/streak/record', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    expect(detailOf(res.body, field)?.code).toBe(code);
    expect((await acct.api.get('/schema/streak/record', { fetchTotalCount: 'true' })).body.paging.total).toBe(before);
  });

  it('lists live milestones ascending and refuses to strand one', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'S', completionTargetValue: 10 })).body.data;
    for (const [target, status] of [
      [7, 'live'],
      [3, 'live'],
      [5, 'paused'],
    ] as const) {
      const m = await acct.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'streak',
        linkedSchemaRecordId: streak.id,
        name: `M${target}`,
        description: 'd',
        milestoneTargetValue: target,
        status,
      });
      expect(m.status).toBe(200);
    }
    const read = (await acct.api.get(`/schema/streak/record/${streak.id}`)).body.data;
    expect(read.milestones.map((m: any) => m.milestoneTargetValue)).toEqual([3, 7]);
    const strand = await acct.api.patch(`/schema/streak/record/${streak.id}`, { completionTargetValue: 6 });
    expect(strand.status).toBe(409);
    expect((await acct.api.patch(`/schema/streak/record/${streak.id}`, { completionTargetValue: 7 })).status).toBe(200);
    await acct.api.delete(`/schema/streak/record/${streak.id}`);
    const left = await app.db('milestone').where({ linked_schema_record_id: streak.id }).count({ n: '*' });
    expect(left[0]!.n).toBe(0);
  });

  it('shows guests and end users a nested milestone as its id, target and EUD fields only (CONTRACT §5)', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'S', completionTargetValue: 10 })).body.data;
    await acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'M',
      description: 'd',
      milestoneTargetValue: 5,
      status: 'live',
      eudTitle: 'Halfway',
    });
    const token = (await acct.api.post('/enduser/token', { externalId: 'nested-milestone-reader' })).body.data.accessToken;
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    const member = app.anon.with({ 'x-account-id': acct.accountId, 'x-enduser-access-token': token });
    for (const reader of [guest, member]) {
      const reads = [
        (await reader.get(`/schema/streak/record/${streak.id}`)).body.data,
        (await reader.get('/schema/streak/record')).body.data.find((d: any) => d.id === streak.id),
      ];
      for (const read of reads) {
        expect(read.milestones).toHaveLength(1);
        const [nested] = read.milestones;
        expect(nested).toMatchObject({ milestoneTargetValue: 5, eudTitle: 'Halfway' });
        expect(Object.keys(nested).filter((k) => !['id', 'milestoneTargetValue', 'reward'].includes(k) && !k.startsWith('eud'))).toEqual(
          [],
        );
        expect(nested.reward).toBeNull();
      }
    }
    // API keys still see the milestone in full.
    const full = (await acct.api.get(`/schema/streak/record/${streak.id}`)).body.data.milestones[0];
    expect(full).toMatchObject({ name: 'M', status: 'live' });
    expect(full.createdAt).toEqual(expect.any(String));
  });

  it("nests each milestone's reward for guests and end users, its public fields in the read's language, so the widget can say what a milestone earns", async () => {
    const reward = (
      await acct.api.post('/schema/reward/record', {
        name: 'Ten off',
        description: 'd',
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: 'no_expiry',
        eudTitle: '10% off',
      })
    ).body.data;
    await acct.api.patch(`/schema/reward/record/${reward.id}`, { eudTitle: '10 % de réduction' }, {}, { languageCode: 'fr' });
    const challenge = (await acct.api.post('/schema/challenge/record', { name: 'C', completionTargetValue: 10 })).body.data;
    const milestone = await acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      name: 'M',
      description: 'd',
      milestoneTargetValue: 5,
      status: 'live',
      rewardId: reward.id,
    });
    expect(milestone.status).toBe(200);
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    const read = await guest.get(`/schema/challenge/record/${challenge.id}`, { languageCode: 'fr' });
    // What it gives, never its id (CONTRACT §5: no rewardId for guests and end users).
    expect(read.body.data.milestones[0].reward).toEqual({
      rewardKind: 'code',
      discountType: 'percentage',
      discountValue: 10,
      pointsValue: null,
      pointsCost: null,
      eudTitle: '10 % de réduction',
      eudRedeemInstructionMessage: null,
    });
    // API keys read rewards themselves: their milestones keep the rewardId alone, as in event payloads.
    const full = (await acct.api.get(`/schema/challenge/record/${challenge.id}`)).body.data.milestones[0];
    expect(full.rewardId).toBe(reward.id);
    expect(full).not.toHaveProperty('reward');
    // A reward that is not live is not shown; a deleted one leaves the milestone without one.
    await acct.api.patch(`/schema/reward/record/${reward.id}`, { status: 'draft' });
    expect((await guest.get(`/schema/challenge/record/${challenge.id}`)).body.data.milestones[0].reward).toBeNull();
    await acct.api.patch(`/schema/reward/record/${reward.id}`, { status: 'live' });
    expect((await guest.get(`/schema/challenge/record/${challenge.id}`)).body.data.milestones[0].reward.eudTitle).toBe('10% off');
    await acct.api.delete(`/schema/reward/record/${reward.id}`);
    expect((await guest.get(`/schema/challenge/record/${challenge.id}`)).body.data.milestones[0].reward).toBeNull();
  });
});

describe('challenge', () => {
  it('requires a completion target and ordered bounds', async () => {
    expect(detailOf((await acct.api.post('/schema/challenge/record', { name: 'C' })).body, 'completionTargetValue')?.code).toBe('required');
    const bad = await acct.api.post('/schema/challenge/record', {
      name: 'C',
      completionTargetValue: 100,
      startAt: '2026-12-01T00:00:00Z',
      endAt: '2026-11-01T00:00:00Z',
    });
    expect(detailOf(bad.body, 'endAt')?.code).toBe('invalid');
    expect(
      detailOf(
        (await acct.api.post('/schema/challenge/record', { name: 'C', completionTargetValue: 1, startAt: '2026-12-01' })).body,
        'startAt',
      )?.code,
    ).toBe('invalid_format');
    // Year 0 is 1 BC to PostgreSQL, and past 9999 an instant reads back in a form clients cannot parse.
    for (const startAt of ['0000-06-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:00:00-05:00']) {
      const outOfRange = await acct.api.post('/schema/challenge/record', { name: 'C', completionTargetValue: 1, startAt });
      expect(outOfRange.status).toBe(400);
      expect(detailOf(outOfRange.body, 'startAt')?.code).toBe('invalid_format');
    }
    const ok = await acct.api.post('/schema/challenge/record', {
      name: 'Spend 100',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
      startAt: '2026-11-01T00:00:00+01:00',
    });
    expect(ok.body.data).toMatchObject({ toBeFailedWarningHours: 24, startAt: '2026-10-31T23:00:00.000Z', endAt: null });
  });
});

describe('mission', () => {
  const tasks = [
    { name: 'Buy', activityId: 'purchase', targetValue: 2, eudTitle: 'Buy twice' },
    { name: 'Review', activityId: 'review', aggregationMethod: 'sum', targetValue: 1 },
  ];

  it('generates task ids and keeps them across updates', async () => {
    const created = (await acct.api.post('/schema/mission/record', { name: 'M', tasks })).body.data;
    expect(created.tasks).toHaveLength(2);
    expect(created.tasks[0]).toMatchObject({ activityId: 'purchase', aggregationMethod: 'count', targetValue: 2, eudTitle: 'Buy twice' });
    const [first, second] = created.tasks;
    const updated = await acct.api.patch(`/schema/mission/record/${created.id}`, {
      tasks: [
        { ...tasks[0], id: first.id, targetValue: 3, eudTitle: undefined },
        { name: 'Share', activityId: 'share', targetValue: 1 },
      ],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.tasks[0]).toMatchObject({ id: first.id, targetValue: 3, eudTitle: 'Buy twice' });
    expect(updated.body.data.tasks[1].id).not.toBe(second.id);
    // One id on two tasks would have them share one task's progress: refused, the mission as it was.
    const twice = await acct.api.patch(`/schema/mission/record/${created.id}`, {
      tasks: [
        { ...tasks[0], id: first.id },
        { ...tasks[1], id: first.id },
      ],
    });
    expect(twice.status).toBe(400);
    expect(detailOf(twice.body, 'tasks[1].id')?.code).toBe('invalid');
    expect((await acct.api.get(`/schema/mission/record/${created.id}`)).body.data.tasks).toEqual(updated.body.data.tasks);
  });

  it.each([
    [{ name: 'M', tasks: [] }, 'tasks', 'too_few'],
    [{ name: 'M', tasks: Array.from({ length: 21 }, (_, i) => ({ name: 't', activityId: `a${i}`, targetValue: 1 })) }, 'tasks', 'too_many'],
    [{ name: 'M', tasks: [{ name: 't', activityId: 'a', targetValue: 0 }] }, 'tasks[0].targetValue', 'too_small'],
    [{ name: 'M', tasks: [{ name: 't', activityId: 'a', targetValue: 1, extra: true }] }, 'tasks[0].extra', 'unknown_field'],
    [
      {
        name: 'M',
        tasks: [
          { name: 't', activityId: 'a', targetValue: 1 },
          { name: 'u', activityId: 'a', targetValue: 1 },
        ],
      },
      'tasks[1].activityId',
      'invalid',
    ],
    [{ name: 'M', tasks, rewardId: '7d419a6f-9c2a-41b9-82fb-a32ad64892a2' }, 'rewardId', 'not_found'],
  ])('refuses %j', async (body, field, code) => {
    const res = await acct.api.post('/schema/mission/record', body);
    expect(res.status).toBe(400);
    expect(detailOf(res.body, field)?.code).toBe(code);
  });

  it('refuses a task update that strands a milestone', async () => {
    const m = (await acct.api.post('/schema/mission/record', { name: 'M', tasks })).body.data;
    const ms = await acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'mission',
      linkedSchemaRecordId: m.id,
      name: 'all',
      description: 'd',
      milestoneTargetValue: 2,
      status: 'live',
    });
    expect(ms.status).toBe(200);
    const stranding = await acct.api.patch(`/schema/mission/record/${m.id}`, { tasks: [tasks[0]] });
    expect(stranding.status).toBe(409);
    expect(stranding.body.error.details).toEqual([expect.objectContaining({ field: 'tasks', code: 'strands_milestone' })]);
  });
});

describe('milestone', () => {
  it('never stays above its parent when it races an update of the target or the tasks', async () => {
    for (let round = 0; round < 8; round++) {
      const challenge = (await acct.api.post('/schema/challenge/record', { name: `Race ${round}`, completionTargetValue: 10 })).body.data;
      const mission = (
        await acct.api.post('/schema/mission/record', {
          name: `Race ${round}`,
          tasks: [1, 2, 3].map((n) => ({ name: `t${n}`, activityId: `a${n}`, targetValue: 1 })),
        })
      ).body.data;
      const milestone = (slug: string, id: string, target: number) =>
        acct.api.post('/schema/milestone/record', {
          linkedSchemaSlug: slug,
          linkedSchemaRecordId: id,
          name: 'M',
          description: 'd',
          milestoneTargetValue: target,
          status: 'live',
        });
      await Promise.all([
        milestone('challenge', challenge.id, 8),
        acct.api.patch(`/schema/challenge/record/${challenge.id}`, { completionTargetValue: 5 }),
        milestone('mission', mission.id, 3),
        acct.api.patch(`/schema/mission/record/${mission.id}`, { tasks: [mission.tasks[0]] }),
      ]);
      const limits = [
        [(await acct.api.get(`/schema/challenge/record/${challenge.id}`)).body.data, (c: any) => c.completionTargetValue],
        [(await acct.api.get(`/schema/mission/record/${mission.id}`)).body.data, (m: any) => m.tasks.length],
      ] as const;
      for (const [parent, limit] of limits) {
        for (const m of parent.milestones) expect(m.milestoneTargetValue).toBeLessThanOrEqual(limit(parent));
      }
    }
  });

  it('checks its parent, reachability and uniqueness per parent', async () => {
    const challenge = (await acct.api.post('/schema/challenge/record', { name: 'C', completionTargetValue: 50 })).body.data;
    const base = { linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challenge.id, name: 'Half', description: 'd', status: 'live' };
    const reward = (
      await acct.api.post('/schema/reward/record', {
        name: 'R',
        description: 'd',
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: 'no_expiry',
      })
    ).body.data;
    const ok = await acct.api.post('/schema/milestone/record', {
      ...base,
      milestoneTargetValue: 25,
      rewardId: reward.id,
      eudTitle: 'Halfway',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.eudMilestoneRewardInstructionMessage).toBeNull();
    const dup = await acct.api.post('/schema/milestone/record', { ...base, milestoneTargetValue: 25 });
    expect(dup.status).toBe(400);
    expect(detailOf(dup.body, 'milestoneTargetValue')?.code).toBe('duplicate');
    const far = await acct.api.post('/schema/milestone/record', { ...base, milestoneTargetValue: 51 });
    expect(detailOf(far.body, 'milestoneTargetValue')?.code).toBe('unreachable');
    expect((await acct.api.patch(`/schema/milestone/record/${ok.body.data.id}`, { milestoneTargetValue: 60 })).status).toBe(400);
    const orphan = await acct.api.post('/schema/milestone/record', { ...base, linkedSchemaRecordId: reward.id, milestoneTargetValue: 1 });
    expect(detailOf(orphan.body, 'linkedSchemaRecordId')?.code).toBe('not_found');
    const noDescription = await acct.api.post('/schema/milestone/record', { ...base, description: undefined, milestoneTargetValue: 2 });
    expect(detailOf(noDescription.body, 'description')?.code).toBe('required');
    const moved = await acct.api.patch(`/schema/milestone/record/${ok.body.data.id}`, { linkedSchemaRecordId: reward.id });
    expect(detailOf(moved.body, 'linkedSchemaRecordId')?.code).toBe('not_editable');
    await acct.api.delete(`/schema/reward/record/${reward.id}`);
    expect((await acct.api.get(`/schema/milestone/record/${ok.body.data.id}`)).body.data.rewardId).toBeNull();
  });
});
