import type PgBoss from 'pg-boss';
import { databaseError } from '../errors.js';

/**
 * What workers starting together on a new database meet in pg-boss's createQueue, which makes each
 * queue's table and constraints without serialising its callers: a deadlock, or the other's table
 * or row already there. Each is over once the other caller commits.
 */
const RACED = new Set(['40P01', '40001', '23505', '42P07', '42710']);
const ATTEMPTS = 5;

/** Creates the queue, or brings an existing one to these options: createQueue leaves an existing queue as it was. */
export async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(queue.name, queue);
      await boss.updateQueue(queue.name, queue);
      return;
    } catch (err) {
      if (attempt === ATTEMPTS || !RACED.has(databaseError(err)?.code ?? '')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}
