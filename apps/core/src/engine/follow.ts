import type { Knex } from 'knex';
import { z } from 'zod';
import { alreadyFollowed, invalidInput, notEarnable } from '../errors.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../records/validate.js';
import { columnsOf } from '../records/row-types.js';
import { pointsSettingFields, type PointsSettingRow, profileField, SOCIAL_NETWORKS, type SocialNetwork } from '../schema/points.js';
import { actingMember, addEntry, lockMember, unknownMember } from './points.js';

export const followBody = z.strictObject({
  network: z
    .enum(SOCIAL_NETWORKS)
    .meta({ description: 'The network whose profile of the shop (points_setting.<network>Url) the member followed.' }),
  ownedById: z
    .uuid({ message: 'Expected a UUID' })
    .optional()
    .meta({ description: 'The member (API key only; an end user follows for themselves).' }),
});

const SETTING_COLUMNS = columnsOf(pointsSettingFields);

/**
 * Why following `network` earns nothing now (points off, no rate, no profile, or the member not
 * live: like a birthday, a follow earns live members only), as an error detail's field and
 * message; null when it earns.
 */
function whyNotEarnable(
  setting: PointsSettingRow,
  network: SocialNetwork,
  memberStatus: string,
): { field: string; message: string } | null {
  if (setting.status !== 'live') return { field: 'status', message: `Points are ${setting.status}.` };
  if (memberStatus !== 'live') return { field: 'ownedById', message: `The member is ${memberStatus}: only live members earn.` };
  if (setting.points_on_follow <= 0) return { field: 'pointsOnFollow', message: 'pointsOnFollow is 0.' };
  const field = profileField(network);
  return setting[SETTING_COLUMNS[field]] ? null : { field, message: `${field} is not set.` };
}

/**
 * A member's follow of one of the shop's social profiles (an addition to CONTRACT §19): the first
 * one of each network earns `pointsOnFollow` with an `earned` entry linked `social_follow` (the
 * network as its record), multiplied by the member's tier like every earned entry, and adds the
 * network to the member's `socialFollows` in the same transaction. The member's row lock decides
 * racing follows, so each network earns once. 409 `not_earnable` while points are off, the rate is
 * 0, the network has no profile or the member is not live; 409 `already_followed` for a network
 * followed before.
 * The shop cannot see whether the shopper really followed: like every loyalty program's social
 * rewards, it trusts the click that opened the profile.
 */
export async function followProfile(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  setting: PointsSettingRow,
  body: unknown,
): Promise<{ pointEntry: Record<string, unknown>; pointsBalance: number }> {
  const parsed = followBody.safeParse(bodyOrEmpty(body));
  if (!parsed.success) throw invalidInput('The follow is invalid.', issueDetails('', parsed.error));
  const { network, ownedById } = parsed.data;
  const memberId = actingMember(ctx, ownedById, 'follows');
  const accountId = setting.account_id;
  const read = await lockMember(trx, accountId, memberId);
  if (!read) throw unknownMember(memberId);
  const refusal = whyNotEarnable(setting, network, read.member.status);
  if (refusal) throw notEarnable(`Following the shop on ${network} earns no points now.`, [{ ...refusal, code: 'not_earnable' }]);
  const followed = read.member.social_follows;
  if (followed.includes(network))
    throw alreadyFollowed(undefined, [{ field: 'network', code: 'already_followed', message: `${network} is among socialFollows.` }]);
  const socialFollows = [...followed, network];
  await trx('account_user').where({ account_id: accountId, id: memberId }).update({ social_follows: socialFollows });
  const entered = await addEntry(
    trx,
    accountId,
    {
      ownedById: memberId,
      points: setting.points_on_follow,
      reason: 'earned',
      linkedSchemaSlug: 'social_follow',
      linkedSchemaRecordId: network,
    },
    // The member as the follow leaves it, so the entry's event shows the network among socialFollows.
    { read: { ...read, member: { ...read.member, social_follows: socialFollows } }, announce: { records, ctx } },
  );
  const [pointEntry] = await records.serialize(records.registry.require('point_entry'), [entered.entry], ctx, { db: trx });
  return { pointEntry: pointEntry!, pointsBalance: entered.pointsBalance };
}
