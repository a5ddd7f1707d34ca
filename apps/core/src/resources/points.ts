import { z } from 'zod';
import { addEntry, reverseBody, reverseEntry } from '../engine/points.js';
import { conflict, type ErrorDetail, invalidInput } from '../errors.js';
import { defineResource } from '../records/resource.js';
import { followBody, followProfile } from '../engine/follow.js';
import {
  CLIENT_REASONS,
  pointEntryFields,
  pointsSettingFields,
  profileField,
  SOCIAL_HOSTS,
  SOCIAL_NETWORKS,
  tierFields,
} from '../schema/points.js';
import { ADMIN_PUBLIC_READ } from './common.js';
import { transaction } from '../db/transaction.js';

const UUID = z.uuid();

/** A bonus points event's rules over the record as it stands: one decimal, both times while it multiplies, the end after the start. */
function bonusRefusals(record: Record<string, unknown>): ErrorDetail[] {
  const m = record.bonusMultiplier;
  if (typeof m !== 'number') return [];
  if (Math.abs(m * 10 - Math.round(m * 10)) > 1e-9)
    return [{ field: 'bonusMultiplier', code: 'invalid', message: 'One decimal at most, e.g. 1.5.' }];
  if (m <= 1) return [];
  const missing = (['bonusStartsAt', 'bonusEndsAt'] as const)
    .filter((field) => record[field] == null)
    .map((field): ErrorDetail => ({ field, code: 'required', message: 'Required while bonusMultiplier is above 1.' }));
  if (missing.length) return missing;
  return Date.parse(String(record.bonusEndsAt)) <= Date.parse(String(record.bonusStartsAt))
    ? [{ field: 'bonusEndsAt', code: 'invalid', message: 'Must be after bonusStartsAt.' }]
    : [];
}
/** What an action that writes one entry answers: the entry, and the member's balance after it. */
const ENTRY_ANSWER = z.object({
  pointEntry: z.record(z.string(), z.unknown()).meta({ $ref: '#/components/schemas/PointEntry' }),
  pointsBalance: z.number().int(),
});

export const pointsSetting = defineResource({
  slug: 'points_setting',
  table: 'points_setting',
  description:
    "The account's points program (CONTRACT §19): one record per account, made with the account; it is read and updated, never created or deleted. " +
    'End users and guests read its public fields: whether points are live, what they are called, and how they are earned.',
  access: { list: ['apikey', 'enduser', 'guest'], get: ['apikey', 'enduser', 'guest'], update: ['apikey'] },
  publicScope: 'public',
  fields: pointsSettingFields,
  async beforeUpdate({ values, existing, columns }) {
    // Every member's window sum is stale: the daily pass sums it again from the entries.
    if (values.tierWindowMonths !== undefined && values.tierWindowMonths !== existing!.tier_window_months)
      columns.tier_window_changed_at = new Date();
  },
  validate(record) {
    const profiles = SOCIAL_NETWORKS.flatMap((network): ErrorDetail[] => {
      const field = profileField(network);
      const url = record[field];
      return typeof url === 'string' && !SOCIAL_HOSTS[network].test(new URL(url).hostname)
        ? [{ field, code: 'invalid', message: `Expected a profile on ${network}'s own site.` }]
        : [];
    });
    return [...profiles, ...bonusRefusals(record)];
  },
  actions: {
    follow: {
      flows: ['apikey', 'enduser'],
      // The member's row lock decides racing follows; the setting is only read, so follows of different members never wait on each other.
      locksRecord: false,
      body: followBody,
      returns: ENTRY_ANSWER,
      description:
        'A member followed the shop on a social network (an addition to CONTRACT §19): an end user for themselves, an API key with ownedById. ' +
        'The first follow of each network earns pointsOnFollow (an earned entry linked social_follow, multiplied by the tier) and adds it to the member’s socialFollows. ' +
        '409 not_earnable while points are not live, pointsOnFollow is 0, the network has no profile or the member is not live; 409 already_followed.',
      run: ({ trx, ctx, records, row, body }) => followProfile(trx, records, ctx, row, body),
    },
  },
});

export const pointEntry = defineResource({
  slug: 'point_entry',
  table: 'point_entry',
  description:
    "Entries of members' points: each moves its member's pointsBalance in the same transaction. An API key creates earned and adjusted entries; end users read their own.",
  access: { list: ['apikey', 'enduser'], get: ['apikey', 'enduser'], create: ['apikey'] },
  publicScope: 'own',
  fields: pointEntryFields,
  answers: { create: [409] },
  actions: {
    reverse: {
      flows: ['apikey'],
      body: reverseBody,
      returns: ENTRY_ANSWER,
      description:
        'Takes back up to what remains of an earned entry (default: all) with one reversed entry linked to it, even below 0 ' +
        '(how a refund takes back an order’s points). 409 not_reversible when it is no earned entry or nothing remains; ' +
        '409 duplicate_unique_identifier on a replay.',
      run: ({ trx, ctx, records, row, body }) => reverseEntry(trx, records, ctx, row, body),
    },
  },
  rules: {
    description: 'An API key creates earned entries (positive points) and adjusted ones (either sign); points are never 0.',
    create: [
      { properties: { reason: { enum: [...CLIENT_REASONS] }, points: { not: { const: 0 } } } },
      { if: { properties: { reason: { const: 'earned' } }, required: ['reason'] }, then: { properties: { points: { minimum: 1 } } } },
    ],
  },
  validate(record, op) {
    if (op !== 'create') return [];
    const details: ErrorDetail[] = [];
    if (record.points === 0) details.push({ field: 'points', code: 'invalid', message: 'Must not be 0.' });
    if (record.reason == null || !CLIENT_REASONS.includes(record.reason))
      details.push({ field: 'reason', code: 'invalid', message: `An API key creates ${CLIENT_REASONS.join(' and ')} entries only.` });
    else if (record.reason === 'earned' && (record.points ?? 0) < 0)
      details.push({ field: 'points', code: 'invalid', message: 'An earned entry is positive; take points back with adjusted.' });
    return details;
  },
  async create({ db, ctx, values, records }) {
    const accountId = ctx.account!.id;
    return transaction(db, async (trx) => {
      // A link to one of the service's resources names a record of this account (CONTRACT §3); any
      // other slug is the client's own reference (an order), which the service cannot check.
      const linked = values.linkedSchemaSlug ? records.registry.get(values.linkedSchemaSlug) : undefined;
      if (linked) {
        const id = values.linkedSchemaRecordId;
        const found =
          typeof id === 'string' &&
          UUID.safeParse(id).success &&
          (await trx(linked.table).where({ account_id: accountId, id }).first('id'));
        if (!found)
          throw invalidInput(`No ${linked.slug} with this linkedSchemaRecordId in the account.`, [
            { field: 'linkedSchemaRecordId', code: 'not_found', message: `The id of a ${linked.slug} of this account.` },
          ]);
      }
      const notLive = () =>
        conflict('Points are not live in this account: nothing earns.', [
          { field: 'reason', code: 'points_not_live', message: 'The points setting is not live.' },
        ]);
      const entered = await addEntry(trx, accountId, values, {
        ...(values.reason === 'earned' ? { whenNotLive: notLive } : {}),
        announce: { records, ctx },
      });
      const [data] = await records.serialize(records.registry.require('point_entry'), [entered.entry], ctx, { db: trx });
      return data;
    });
  },
});

export const tier = defineResource({
  slug: 'tier',
  table: 'tier',
  description:
    'VIP tiers (CONTRACT §19): a member is in the highest live tier whose pointsThreshold their pointsEarnedInTierWindow reaches. ' +
    'Entries raise it at once; the daily pass lowers it as the window slides and applies tiers created, changed or deleted since.',
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: tierFields,
  validate(record) {
    const m = record.earnMultiplier;
    return typeof m === 'number' && Math.abs(m * 10 - Math.round(m * 10)) > 1e-9
      ? [{ field: 'earnMultiplier', code: 'invalid', message: 'One decimal at most, e.g. 1.5.' }]
      : [];
  },
  async beforeDelete({ trx, row }) {
    // Members of a deleted tier are in none until the daily pass places them.
    await trx('account_user').where({ account_id: row.account_id, tier_id: row.id }).update({ tier_id: null });
  },
});
