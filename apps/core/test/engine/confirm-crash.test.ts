import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';

// CONTRACT §17: a worker killed in the middle of the confirm pass leaves nothing half-done, and
// the next worker issues every held reward log exactly once.
let app: TestApp;
let acct: TestAccount;
const workers: ServiceProcess[] = [];
const HELD = 5_000;
/** Workers sweeping every 100 ms, whose sweeps expire after 5 s: the killed worker's sweep stops the next one that long, not the default minute. */
const WORKER_ENV = { LOYALTY_SCHEDULER_INTERVAL_MS: '100', LOYALTY_SWEEP_EXPIRY_SECONDS: '5' };
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await app.close();
});

interface Tally {
  issued: number;
  pending: number;
  /** Issued logs whose code, coupon and event do not all agree. */
  torn: number;
  /** Coupons or events of logs that are still pending. */
  strays: number;
}

async function tally(rewardId: string): Promise<Tally> {
  const { rows } = await app.db.raw<{ rows: Tally[] }>(
    `select count(*) filter (where l.reward_log_status = 'issued')::int as issued,
            count(*) filter (where l.reward_log_status = 'pending')::int as pending,
            count(*) filter (where l.reward_log_status = 'issued'
                               and (l.coupon_code is null or l.reward_issued_at is null or coalesce(c.n, 0) <> 1 or coalesce(e.n, 0) <> 1))::int as torn,
            count(*) filter (where l.reward_log_status = 'pending' and (c.n > 0 or e.n > 0 or l.coupon_code is not null))::int as strays
       from reward_log l
       left join (select reward_log_id, count(*) as n from coupon where reward_id = ? group by 1) c on c.reward_log_id = l.id
       left join (select linked_schema_record_id, count(*) as n from event_log where event_code = 'reward_log_issued' group by 1) e
              on e.linked_schema_record_id = l.id
      where l.reward_id = ?`,
    [rewardId, rewardId],
  );
  return rows[0]!;
}

describe('the confirm pass killed mid-way', () => {
  it('leaves each held reward log pending or issued whole, and the next worker issues the rest once', async () => {
    const reward = await accepted(
      acct.api.post('/schema/reward/record', {
        name: 'Held',
        description: 'd',
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: 'no_expiry',
        handleCoupon: true,
        handleCouponAutoGeneration: true,
      }),
    );
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Visits' }));
    const member = await accepted(acct.api.post('/schema/account_user/record', { externalId: 'held-1' }));
    await app.db.raw(
      `insert into reward_log (account_id, reward_id, linked_schema_slug, linked_schema_record_id, owned_by_id, reward_log_status, confirm_at)
       select ?, ?, 'streak', ?, ?, 'pending', now() - interval '1 minute' from generate_series(1, ?)`,
      [acct.accountId, reward.id, streak.id, member.id, HELD],
    );

    const first = await startProcess(app, ['worker'], WORKER_ENV);
    workers.push(first);
    await until(async () => (await tally(reward.id)).issued > 0, 60_000, 'a first batch issued');
    await first.kill('SIGKILL');
    const cut = await tally(reward.id);
    expect(cut.torn).toBe(0);
    expect(cut.strays).toBe(0);
    expect(cut.pending).toBeGreaterThan(0);

    const second = await startProcess(app, ['worker'], WORKER_ENV);
    workers.push(second);
    await until(async () => (await tally(reward.id)).pending === 0, 120_000, 'every held reward log issued');
    expect(await tally(reward.id)).toEqual({ issued: HELD, pending: 0, torn: 0, strays: 0 });
  }, 240_000);
});
