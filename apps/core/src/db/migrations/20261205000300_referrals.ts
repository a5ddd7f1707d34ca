import type { Knex } from 'knex';

/**
 * Referrals (an earning rate beside sign-up's, CONTRACT §19): every member's own referral code,
 * the member who referred them, and the two rates the Shopify app earns a referred first order by.
 *
 * A code is a 40-bit number from a sequence, scrambled by a Feistel network (a bijection, so codes
 * never collide and need no retry) and written in 8 characters of an alphabet without look-alikes
 * (no 0/O, 1/I): short enough to read aloud, not counting up from one shopper to the next.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('create sequence account_user_referral_seq');
  await db.raw(`
    create function loyalty_referral_code(n bigint) returns text language plpgsql immutable strict parallel safe as $$
    declare
      l bigint := (n >> 20) & 1048575;
      r bigint := n & 1048575;
      t bigint;
      v bigint;
      code text := '';
    begin
      for round in 1..4 loop
        t := r;
        r := l # (((r * 40503 + round * 7919) # (r >> 7)) & 1048575);
        l := t;
      end loop;
      v := (l << 20) | r;
      for i in 1..8 loop
        code := substr('23456789ABCDEFGHJKLMNPQRSTUVWXYZ', (v & 31)::int + 1, 1) || code;
        v := v >> 5;
      end loop;
      return code;
    end $$`);
  await db.raw(`
    alter table account_user
      add column referral_code text not null default loyalty_referral_code(nextval('account_user_referral_seq')),
      add column referred_by_id uuid,
      add foreign key (account_id, referred_by_id) references account_user (account_id, id) on delete set null (referred_by_id)`);
  // Unique by the sequence already; the index is how a code finds its member.
  await db.raw('create unique index account_user_referral_code_unique on account_user (account_id, referral_code)');
  await db.raw(
    'alter table points_setting add column points_on_referral integer not null default 0, add column points_on_referred_order integer not null default 0',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column points_on_referral, drop column points_on_referred_order');
  await db.raw('alter table account_user drop column referral_code, drop column referred_by_id');
  await db.raw('drop function loyalty_referral_code(bigint)');
  await db.raw('drop sequence account_user_referral_seq');
}
