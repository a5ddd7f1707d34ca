import type { Knex } from 'knex';
import { updateRow } from '../db/rows.js';
import { emit, type NewEvent } from '../events/outbox.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import { progressEventPayload } from './payloads.js';
import type { LogKind, ProgressEvent, ProgressRow } from './types.js';

/**
 * Writes what the scheduler settles on a progress (a freeze spent, a break, a failure, a warning)
 * and emits its events in order, in the same transaction. Payloads are built one after the other
 * because they read on the transaction's one connection.
 */
export async function writeSettled<P extends ProgressRow>(
  records: Records,
  trx: Knex.Transaction,
  ctx: RequestContext,
  kind: LogKind,
  row: P,
  { patch, events }: { patch: Partial<P>; events: ProgressEvent[] },
): Promise<P> {
  const updated = await updateRow<P>(trx, `${kind}_progress`, row, patch);
  const emitted: NewEvent[] = [];
  for (const e of events)
    emitted.push({
      code: e.code,
      ownedById: row.owned_by_id,
      linkedSchemaSlug: `${kind}_progress`,
      linkedSchemaRecordId: row.id,
      payload: await progressEventPayload(records, trx, ctx, kind, e),
    });
  await emit(trx, row.account_id, emitted);
  return updated;
}
