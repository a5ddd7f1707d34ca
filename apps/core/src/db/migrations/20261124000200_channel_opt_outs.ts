import type { Knex } from 'knex';

/**
 * Opt-outs per channel (`email`, `push`, `sms`, `chat`) instead of one for every channel: an email
 * unsubscribe link now silences email only. A member who opted out under the single opt-out is
 * opted out of every channel, as they were: that is what the confirmation told them ("you will no
 * longer receive these messages"), and consent rules punish messaging someone who opted out, never
 * messaging them too little. A merchant can clear a channel when the member opts back in.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table account_user add column unsubscribed_channels text[] not null default '{}'`);
  await db.raw(`alter table account_user add constraint account_user_unsubscribed_channels_known
    check (unsubscribed_channels <@ array['email', 'push', 'sms', 'chat']::text[])`);
  await db.raw(`update account_user set unsubscribed_channels = array['email', 'push', 'sms', 'chat'] where unsubscribed_at is not null`);
  await db.raw('alter table account_user drop column unsubscribed_at');
}

/** Back to one opt-out: a member opted out of any channel is opted out of all (the time of it is not kept). */
export async function down(db: Knex): Promise<void> {
  await db.raw('alter table account_user add column unsubscribed_at timestamptz(3)');
  await db.raw(`update account_user set unsubscribed_at = now() where cardinality(unsubscribed_channels) > 0`);
  await db.raw('alter table account_user drop column unsubscribed_channels');
}
