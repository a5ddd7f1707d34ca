import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SecretBox } from '../src/auth/crypto.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { Registry } from '../src/records/registry.js';
import { RecordService } from '../src/records/service.js';
import { createResources } from '../src/resources/index.js';
import { LATE_DAYS, runBirthdays } from '../src/scheduler/birthdays.js';
import { runPointsDaily } from '../src/scheduler/points.js';
import { provisionAccount } from '../src/tenancy.js';
import { elapsedSeconds, openBenchDatabase } from './lib.js';

/**
 * bench:tiers — the daily points pass (CONTRACT §19) over 1,000,000 members of one account, by two
 * workers at once (two record services, two pools), each in bounded batches. A day as the pass may
 * meet it with a 12-month window and 12 months' expiry: 10 % of the members have an entry leaving
 * the window (on the anniversary of each day they earned: about that for weekly shoppers), so
 * their window is summed again, and a fifth of those (2 %) fall from Gold to Silver (tier_changed,
 * and Silver's entry reward with a generated code); 1 % are warned that their points expire and 1 %
 * expire (each as if all members went idle within 100 days). The rest have nothing to do: the pass
 * reads them in the condition that finds work, and neither locks nor writes them.
 * Target: <= 60 s; every member with work passed exactly once, no other touched.
 *
 * Then the birthday pass (`pointsOnBirthday`) over the same members, each given a birthday spread
 * over the year: the two workers give the points of the day and the LATE_DAYS before it (about
 * 8/366 of the members), each member once, found through the birthday index; a second pass gives
 * none.
 */
const MEMBERS = Number(process.env.BENCH_TIER_MEMBERS ?? 1_000_000);
const TARGET_SECONDS = 60;
const RESULTS_FILE = fileURLToPath(new URL('./results/tiers.json', import.meta.url));

const database = await openBenchDatabase();
const masterKey = randomBytes(32);
const db = createDb(database.url, 4);
try {
  const seedStarted = process.hrtime.bigint();
  await migrateLatest(db);
  const made = await provisionAccount(db, new SecretBox(masterKey), { organizationName: 'Bench', accountName: 'Tiers' });
  const accountId = made.account.id as string;
  await db('points_setting')
    .where({ account_id: accountId })
    .update({ status: 'live', tier_window_months: 12, expiry_months_of_inactivity: 12 });
  const [gift] = await db('reward')
    .insert({
      account_id: accountId,
      name: 'Welcome to Silver',
      description: 'd',
      discount_type: 'percentage',
      discount_value: 10,
      reward_expiry_type: 'no_expiry',
      handle_coupon: true,
      handle_coupon_auto_generation: true,
      coupon_code_length: 12,
    })
    .returning('id');
  const [silver] = await db('tier')
    .insert({
      account_id: accountId,
      name: 'Silver',
      status: 'live',
      points_threshold: 500,
      earn_multiplier: 1.2,
      entry_reward_id: gift.id,
    })
    .returning('id');
  const [gold] = await db('tier')
    .insert({ account_id: accountId, name: 'Gold', status: 'live', points_threshold: 1500, earn_multiplier: 1.5 })
    .returning('id');
  // Each member as its entries would have left it, by n % 100: 0-1 fall to Silver, 2-9 slide within Silver,
  // 10 is warned, 11 expires (warned 20 days ago), the rest are quiet.
  await db.raw(
    `insert into account_user (account_id, external_id, points_balance, points_earned_in_tier_window, tier_id,
                               last_point_entry_at, points_window_oldest_at, points_expiry_warned_for)
     select ?, 'member-' || n, b.balance, b.balance,
            case when b.balance >= 1500 then ?::uuid when b.balance >= 500 then ?::uuid end,
            b.last, coalesce(b.old, b.last), b.warned
       from generate_series(1, ?) as n,
            lateral (select case when n % 100 < 2 then 1600 when n % 100 < 10 then 800 when n % 100 = 10 then 300
                                 when n % 100 = 11 then 200 else 100 + n % 1900 end as balance,
                            case when n % 100 < 10 then now() - interval '1 day'
                                 when n % 100 = 10 then now() - interval '12 months' + interval '7 days'
                                 when n % 100 = 11 then now() - interval '12 months' - interval '20 days'
                                 else now() - make_interval(days => n % 300) end as last,
                            case when n % 100 < 10 then now() - interval '13 months' end as old,
                            case when n % 100 = 11 then now() - interval '6 days' end as warned) b`,
    [accountId, gold.id, silver.id, MEMBERS],
  );
  // Their entries: the one leaving the window (1000 of the fallers' 1600, 100 of the sliders' 800), and the rest at the last entry.
  await db.raw(
    `insert into point_entry (account_id, owned_by_id, points, reason, created_at, updated_at)
     select account_id, id, case when points_balance = 1600 then 1000 else 100 end, 'earned', points_window_oldest_at, points_window_oldest_at
       from account_user where account_id = ? and points_window_oldest_at < last_point_entry_at
     union all
     select account_id, id, points_balance - case when points_window_oldest_at = last_point_entry_at then 0
                                                  when points_balance = 1600 then 1000 else 100 end,
            'earned', last_point_entry_at, last_point_entry_at
       from account_user where account_id = ?`,
    [accountId, accountId],
  );
  await db.raw('analyze');
  const seedSeconds = elapsedSeconds(seedStarted);

  const config = loadConfig({ ...process.env, DATABASE_URL: database.url, LOYALTY_MASTER_KEY: masterKey.toString('base64') });
  const worker = () => {
    const workerDb = createDb(database.url, 4);
    return { db: workerDb, records: new RecordService(workerDb, new SecretBox(masterKey), new Registry(createResources(config))) };
  };
  const workers = [worker(), worker()];
  const now = new Date();
  const t0 = process.hrtime.bigint();
  const passes = await Promise.all(workers.map((w) => runPointsDaily(w.records, now, Number.POSITIVE_INFINITY)));
  const seconds = elapsedSeconds(t0);
  for (const w of workers) await w.db.destroy();

  const sum = (key: 'members' | 'windows' | 'tierChanges' | 'warnings' | 'expiries') => passes.reduce((s, p) => s + p[key], 0);
  const today = now.toISOString().slice(0, 10);
  const [checked] = (
    await db.raw(
      `select (select count(*) from account_user where account_id = :a and points_passed_on = :today)::int as passed,
              (select count(*) from event_log where account_id = :a and event_code = 'tier_changed')::int as changes,
              (select count(*) from event_log where account_id = :a and event_code = 'points_to_expire')::int as warnings,
              (select count(*) from point_entry where account_id = :a and reason = 'expired')::int as expired,
              (select count(*) from reward_log where account_id = :a and linked_schema_slug = 'tier' and coupon_code is not null)::int as rewards,
              (select count(*) from account_user where account_id = :a
                  and points_balance <> (select coalesce(sum(points), 0) from point_entry e
                                          where e.account_id = account_user.account_id and e.owned_by_id = account_user.id))::int as off`,
      { a: accountId, today },
    )
  ).rows;
  // Members by n % 100, so MEMBERS a multiple of 100 splits exactly.
  const percent = (p: number) => (MEMBERS / 100) * p;
  const expected = { due: percent(12), windows: percent(11), falling: percent(2), warned: percent(1), expiring: percent(1) };
  const failures = [
    sum('members') !== expected.due &&
      `the workers passed ${passes.map((p) => p.members).join(' + ')} members of ${expected.due} with work`,
    checked.passed !== expected.due && `${checked.passed} members marked passed today of ${expected.due} with work`,
    passes.some((p) => p.members === 0) && 'one worker passed nobody',
    sum('windows') !== expected.windows && `${sum('windows')} windows summed for ${expected.windows} members`,
    (checked.changes !== expected.falling || sum('tierChanges') !== expected.falling) &&
      `${checked.changes} tier_changed events for ${expected.falling} falling members`,
    checked.rewards !== expected.falling && `${checked.rewards} entry rewards for ${expected.falling} members entering Silver`,
    checked.warnings !== expected.warned && `${checked.warnings} warnings for ${expected.warned} members`,
    checked.expired !== expected.expiring && `${checked.expired} expired entries for ${expected.expiring} members`,
    checked.off !== 0 && `${checked.off} balances differ from their entries`,
  ].filter(Boolean);
  if (failures.length) throw new Error(failures.join('; '));

  console.log(
    `bench:tiers on ${database.description}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (seeded in ${seedSeconds.toFixed(0)} s)`,
  );
  console.log(
    `daily points pass over ${MEMBERS} members with 2 workers: ${seconds.toFixed(1)} s (target <= ${TARGET_SECONDS} s), ` +
      `${(MEMBERS / seconds).toFixed(0)} members/s; ${sum('members')} with work passed once each (${passes.map((p) => p.members).join(' + ')}), no other touched; ` +
      `${sum('windows')} windows summed, ${sum('tierChanges')} tier changes, ${sum('warnings')} warnings, ${sum('expiries')} expiries`,
  );

  // Birthdays spread over the year (02-29 among them), and the rate turned on.
  await db.raw(
    `update account_user set birthday = to_char(date '2000-01-01' + (substr(external_id, 8)::int % 366), 'MM-DD') where account_id = ?`,
    [accountId],
  );
  await db('points_setting').where({ account_id: accountId }).update({ points_on_birthday: 50 });
  await db.raw('analyze account_user');
  // Mid-July, far from 02-29, in the account's zone (UTC): the day's birthdays and the LATE_DAYS before it.
  const july = new Date(`${now.getUTCFullYear()}-07-14T12:00:00Z`);
  const days = Array.from({ length: LATE_DAYS + 1 }, (_, i) => new Date(july.getTime() - i * 86_400_000).toISOString().slice(5, 10));
  const birthdayWorkers = [worker(), worker()];
  const b0 = process.hrtime.bigint();
  const birthdayPasses = await Promise.all(birthdayWorkers.map((w) => runBirthdays(w.records, july, Number.POSITIVE_INFINITY)));
  const birthdaySeconds = elapsedSeconds(b0);
  const again = await runBirthdays(birthdayWorkers[0]!.records, july, Number.POSITIVE_INFINITY);
  for (const w of birthdayWorkers) await w.db.destroy();
  const [given] = (
    await db.raw(
      `select (select count(*) from account_user where account_id = :a and birthday = any(:days))::int as due,
              (select count(*) from point_entry where account_id = :a and linked_schema_slug = 'birthday')::int as entries,
              (select count(distinct owned_by_id) from point_entry where account_id = :a and linked_schema_slug = 'birthday')::int as members`,
      { a: accountId, days },
    )
  ).rows;
  const birthdayGiven = birthdayPasses.reduce((s, p) => s + p.given, 0);
  const birthdayFailures = [
    (birthdayGiven !== given.due || given.entries !== given.due || given.members !== given.due) &&
      `birthday points: ${birthdayGiven} given (${given.entries} entries, ${given.members} members) for ${given.due} due`,
    again.given !== 0 && `a second birthday pass gave ${again.given}`,
  ].filter(Boolean);
  if (birthdayFailures.length) throw new Error(birthdayFailures.join('; '));
  console.log(
    `birthday pass over ${MEMBERS} members with 2 workers: ${birthdaySeconds.toFixed(1)} s; ${birthdayGiven} given once each ` +
      `(${birthdayPasses.map((p) => p.given).join(' + ')}), the birthdays of ${days.at(-1)} to ${days[0]}; a second pass gave none`,
  );
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        database: database.description,
        members: MEMBERS,
        workers: passes,
        seconds,
        targetSeconds: TARGET_SECONDS,
        birthdays: { workers: birthdayPasses, seconds: birthdaySeconds },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`wrote ${RESULTS_FILE}`);
} finally {
  await db.destroy();
  await database.close();
}
