import { type AccountInfo, loadAccount } from '../auth/authenticate.js';
import { settleRow, SWEEPS, type Swept } from '../engine/sweeps.js';
import type { ProgressRow } from '../engine/types.js';
import type { RecordService } from '../records/service.js';
import { transaction } from '../db/transaction.js';

const BATCH = 200;

export interface SweepResult {
  [name: string]: number;
}

/**
 * Runs every sweep until nothing is due at `now`. Rows are taken with FOR UPDATE SKIP LOCKED in
 * batches, so any number of workers can sweep at once and each row is processed exactly once;
 * the state change and its event commit together.
 */
export async function runSweeps(records: RecordService, now: Date, graceSeconds: number): Promise<SweepResult> {
  const result: SweepResult = {};
  const accounts = new Map<string, AccountInfo | undefined>();
  for (const sweep of SWEEPS) {
    let total = 0;
    for (;;) {
      const processed = await transaction(records.db, async (trx) => {
        const rows = (await sweep
          .due(trx, now, graceSeconds)
          .limit(BATCH)
          .forUpdate(`${sweep.kind}_progress`)
          .skipLocked()) as Swept<ProgressRow>[];
        for (const row of rows) {
          const accountId = row.account_id;
          if (!accounts.has(accountId)) accounts.set(accountId, await loadAccount(trx, accountId));
          await settleRow(records, trx, sweep, accounts.get(accountId)!, row, now, graceSeconds, `sweep:${sweep.name}`);
        }
        return rows.length;
      });
      total += processed;
      if (processed < BATCH) break;
    }
    result[sweep.name] = total;
  }
  return result;
}
