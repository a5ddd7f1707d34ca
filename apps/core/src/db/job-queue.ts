import type PgBoss from 'pg-boss';

/** Creates the queue, or brings an existing one to these options: createQueue leaves an existing queue as it was. */
export async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  await boss.createQueue(queue.name, queue);
  await boss.updateQueue(queue.name, queue);
}
