import { randomUUID } from 'node:crypto';
import { accepted, type Client } from './harness.js';

/**
 * A streak whose milestone at 1 gives `rewardId`: each member's first log on it earns the reward
 * once. `streak` adds to or overrides the streak's fields. Returns the streak's id.
 */
export async function earningStreak(api: Client, rewardId: string, streak: Record<string, unknown> = {}): Promise<string> {
  const { id } = await accepted<{ id: string }>(api.post('/schema/streak/record', { name: `Earning ${randomUUID()}`, ...streak }));
  await accepted(
    api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: id,
      name: 'First',
      description: 'd',
      milestoneTargetValue: 1,
      status: 'live',
      rewardId,
    }),
  );
  return id;
}
