import type { Knex } from 'knex';

/**
 * Points for following the shop's social profiles (an earning rate beside the newsletter's, an
 * addition to CONTRACT §19): the rate and each network's profile on the setting, and on the member
 * the networks already followed, so each earns once. The check keeps the array to known networks.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table points_setting add column points_on_follow integer not null default 0,
    add column instagram_url text, add column tiktok_url text, add column facebook_url text,
    add column youtube_url text, add column x_url text, add column pinterest_url text`);
  await db.raw(`alter table account_user add column social_follows text[] not null default '{}',
    add constraint account_user_social_follows_known
      check (social_follows <@ array['instagram', 'tiktok', 'facebook', 'youtube', 'x', 'pinterest']::text[])`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table account_user drop column social_follows');
  await db.raw(`alter table points_setting drop column points_on_follow, drop column instagram_url, drop column tiktok_url,
    drop column facebook_url, drop column youtube_url, drop column x_url, drop column pinterest_url`);
}
