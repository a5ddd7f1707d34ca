import { z } from 'zod';
import { run } from '../db/prepared.js';
import { heldOutOf, heldOutOfSql, holdoutsSql } from '../engine/holdout.js';
import { memberLock, placeNewMember } from '../engine/members.js';
import { type ErrorDetail, invalidInput } from '../errors.js';
import { field } from '../records/fields.js';
import { defineResource } from '../records/resource.js';
import { accountUserFields } from '../schema/members.js';
import { ADMIN } from './common.js';

function duplicateChannels(channels: unknown): ErrorDetail[] {
  if (!Array.isArray(channels)) return [];
  return channels.flatMap((c, i) =>
    channels.indexOf(c) < i ? [{ field: `unsubscribedChannels[${i}]`, code: 'duplicate', message: `"${String(c)}" is listed twice.` }] : [],
  );
}

/** Prepared: every page of members runs it, and parsing and planning it cost PostgreSQL more than running it. */
const HOLDOUTS = holdoutsSql('$1');

export const accountUser = defineResource({
  slug: 'account_user',
  table: 'account_user',
  description: 'Members: the shoppers who earn progress and rewards.',
  access: ADMIN,
  fields: {
    ...accountUserFields,
    // Only API keys see it (§18): held-out definitions are 404 to the member, and so are their ids.
    heldOutOf: field.virtual(z.array(z.uuid()), {
      description: 'The streaks, challenges and missions the member is held out of (CONTRACT §18): their logs there do not count.',
      staffOnly: true,
    }),
  },
  // A get reads the member's groups with the member.
  readColumns: { heldOutOf: (t) => heldOutOfSql(`${t}.account_id`, `${t}.external_id`) },
  // The groups need only the member's externalId.
  loadTakesIsoTimestamps: true,
  async load({ rows, db, ctx, wanted }) {
    // A log's answer and a get bring their member's groups with them (engine/ingest.ts, readColumns).
    const missing = rows.filter((row) => row.heldOutOf === undefined);
    if (!wanted.has('heldOutOf') || !missing.length) return;
    // An account holds out of a few definitions at most; each member's group is computed here.
    const accountId = ctx.account!.id;
    const holdouts = await run<{ id: string; holdout_percent: number }>(db, { text: HOLDOUTS, values: [accountId] });
    for (const row of missing) row.heldOutOf = heldOutOf(holdouts, row.external_id);
  },
  validate: (record) => duplicateChannels(record.unsubscribedChannels),
  afterCreate: ({ trx, ctx, records, row }) => placeNewMember(trx, records, ctx, row.id),
  async beforeUpdate({ values, existing }) {
    if (values.referredById && values.referredById === existing?.id)
      throw invalidInput('A member cannot have referred themselves.', [
        { field: 'referredById', code: 'self_referral', message: 'A member cannot have referred themselves.' },
      ]);
  },
  uniqueErrors: {
    account_user_external_id_unique: { status: 409, field: 'externalId', message: 'A member with this externalId already exists.' },
  },
  // Logs written while the member is erased share it (engine/members.ts).
  deleteLock: memberLock,
  async beforeDelete({ trx, row }) {
    // GDPR erasure: everything that describes the member goes with it; issued coupons stay issued.
    const where = { account_id: row.account_id, owned_by_id: row.id };
    // A delivery still to be made of their events only would go out with none (CONTRACT §10: a
    // delivery carries its event): it goes with them. Those made stay, as the receiver's record.
    await trx('webhook_log')
      .where({ account_id: row.account_id })
      .whereIn('webhook_log_status', ['pending', 'errored'])
      .whereRaw('event_log_ids <@ array(select id from event_log where account_id = ? and owned_by_id = ?)', [row.account_id, row.id])
      .delete();
    for (const table of [
      'streak_log',
      'challenge_log',
      'mission_log',
      // A reversal belongs to its log: its uniqueIdentifier is freed with the log's.
      'log_reversal',
      'freeze_grant',
      'task_progress',
      'streak_progress',
      'challenge_progress',
      'mission_progress',
      'reward_log',
      'point_entry',
      'event_log',
      'notification_log',
    ]) {
      await trx(table).where(where).delete();
    }
  },
});
