import type { Knex } from 'knex';
import { emit } from '../events/outbox.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import type { RewardLogRow } from '../schema/rewards.js';

/**
 * Announces reward logs issued outside a log's own answer and events (a held one confirmed, a
 * tier's entry reward, one a reversal's recompute reaches anew): one `reward_log_issued` each,
 * with its reward joined, on which the Shopify app makes its discount and fires Reward issued.
 */
export async function announceIssued(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  accountId: string,
  logs: readonly RewardLogRow[],
): Promise<void> {
  if (!logs.length) return;
  const serialized = await records.serialize(records.registry.require('reward_log'), [...logs], { ...ctx, flow: 'apikey' }, { db: trx });
  await emit(
    trx,
    accountId,
    logs.map((log, i) => ({
      code: 'reward_log_issued',
      ownedById: log.owned_by_id,
      linkedSchemaSlug: 'reward_log',
      linkedSchemaRecordId: log.id,
      payload: { rewardLog: serialized[i]! },
    })),
  );
}
