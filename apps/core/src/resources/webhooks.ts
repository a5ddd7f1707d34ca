import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { conflict, type ErrorDetail, invalidInput } from '../errors.js';
import { wakeAtCommit } from '../events/outbox.js';
import type { LoadedRow } from '../records/fields.js';
import { defineResource, type AnyResource, type Row } from '../records/resource.js';
import type { EventLogRow } from '../schema/progress.js';
import { webhookFields, type WebhookLogRow, webhookLogFields } from '../schema/webhooks.js';
import { createResolver, refusedAddressOf } from '../webhooks/addresses.js';
import { ADMIN, ADMIN_READ, joinOne } from './common.js';

/** Repeated codes in an eventCodes value, reported at their index. */
export function duplicateEventCodes(codes: unknown): ErrorDetail[] {
  if (!Array.isArray(codes)) return [];
  return codes.flatMap((code, i) =>
    codes.indexOf(code) < i ? [{ field: `eventCodes[${i}]`, code: 'duplicate', message: `"${String(code)}" is listed twice.` }] : [],
  );
}

/** `whsec_` + 32 random bytes in base64 (the Standard Webhooks secret form). */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Refuses, unless private addresses are allowed, a URL an account gives the service to call whose
 * host is or resolves to an address that is not public (CONTRACT §10): 400 naming `field`.
 */
export function publicAddressCheck(config: Config): (url: unknown, field: string) => Promise<void> {
  const resolver = createResolver(config.dnsServers);
  return async (url, field) => {
    if (config.webhookAllowPrivate || typeof url !== 'string') return;
    const refused = await refusedAddressOf(url, resolver);
    if (!refused) return;
    const kind = refused.kind.replace('_', '-');
    throw invalidInput(`${field} must reach a public address.`, [
      {
        field,
        code: 'private_address',
        message: `The host is or resolves to ${refused.address} (${kind} address space); only public addresses are allowed.`,
      },
    ]);
  };
}

/** Webhooks, with endpoint addresses checked against the configured DNS servers. */
export function createWebhook(config: Config): AnyResource {
  const checkEndpoint = publicAddressCheck(config);

  return defineResource({
    slug: 'webhook',
    table: 'webhook',
    description: 'Signed HTTP callbacks for events. Each delivery is recorded as a webhook_log.',
    access: ADMIN,
    fields: webhookFields,
    validate: (record) => duplicateEventCodes(record.eventCodes),
    async precheck(values) {
      if ('endpointUrl' in values) await checkEndpoint(values.endpointUrl, 'endpointUrl');
    },
    async beforeCreate({ values }) {
      values.webhookSecret = generateWebhookSecret();
    },
    async beforeUpdate({ trx, values, existing }) {
      // Deliveries held by the pause go at once, not at the next of the minutely rechecks a paused webhook gets.
      if (existing && values.status === 'live' && existing.status !== 'live')
        await trx('webhook_log')
          .where({ account_id: existing.account_id, webhook_id: existing.id })
          .whereIn('webhook_log_status', ['pending', 'errored'])
          .where('next_retry_at', '>', trx.fn.now())
          .update({ next_retry_at: trx.fn.now() });
    },
    async beforeDelete({ trx, row }) {
      await trx('webhook_log').where({ account_id: row.account_id, webhook_id: row.id }).delete();
    },
    actions: {
      rotate_secret: {
        returns: 'webhook',
        description: 'Replaces the webhook secret; the response is the webhook with its new secret.',
        async run({ trx, row, toColumns, serialize }) {
          const [updated] = await trx<Row>('webhook')
            .where({ account_id: row.account_id, id: row.id })
            .update({ ...toColumns({ webhookSecret: generateWebhookSecret() }), updated_at: trx.fn.now() })
            .returning('*');
          return serialize(updated!);
        },
      },
    },
  });
}

const EVENT_LOG_FIELDS = {
  id: 'id',
  eventCode: 'event_code',
  ownedById: 'owned_by_id',
  linkedSchemaSlug: 'linked_schema_slug',
  linkedSchemaRecordId: 'linked_schema_record_id',
  payload: 'payload',
  createdAt: 'created_at',
} as const;

/** The event logs a webhook log carries, in its `eventLogIds` order; erased ones are left out. */
async function joinEventLogs(db: Knex, rows: (LoadedRow & Pick<WebhookLogRow, 'event_log_ids'>)[]): Promise<void> {
  const ids = [...new Set(rows.flatMap((r) => r.event_log_ids))];
  const found = ids.length
    ? await db<EventLogRow>('event_log')
        .whereIn('account_id', [...new Set(rows.map((r) => r.account_id))])
        .whereIn('id', ids)
        .select('account_id', ...Object.values(EVENT_LOG_FIELDS))
    : [];
  const byKey = new Map(
    found.map((e) => {
      const plain = Object.fromEntries(Object.entries(EVENT_LOG_FIELDS).map(([key, column]) => [key, e[column] ?? null]));
      plain.createdAt = e.created_at.toISOString();
      return [`${e.account_id}/${e.id}`, plain];
    }),
  );
  for (const row of rows) {
    row.eventLogs = row.event_log_ids.map((id) => byKey.get(`${row.account_id}/${id}`)).filter((e) => e !== undefined);
  }
}

export const webhookLog = defineResource({
  slug: 'webhook_log',
  table: 'webhook_log',
  description: 'One delivery of events to a webhook, with its status and retries. Written by the service.',
  access: ADMIN_READ,
  fields: webhookLogFields,
  async load({ rows, db, wanted, serializeJoined, known }) {
    if (wanted.has('webhook')) {
      await joinOne(rows, 'webhook_id', 'webhook', db, 'webhook', (found) => serializeJoined('webhook', found), known);
    }
    if (wanted.has('eventLogs')) await joinEventLogs(db, rows);
  },
  actions: {
    resend: {
      returns: 'webhook_log',
      description:
        'Delivers this log again: back to pending and due now, with a fresh retry count (after max_errored, or to replay a delivery). Receivers dedupe on webhook-id.',
      async run({ trx, row, serialize }) {
        if (row.lease_until instanceof Date && row.lease_until > new Date()) throw conflict('This delivery is being attempted right now.');
        const [updated] = await trx<Row>('webhook_log')
          .where({ account_id: row.account_id, id: row.id })
          .update({
            webhook_log_status: 'pending',
            retry_count: 0,
            next_retry_at: trx.fn.now(),
            lease_until: null,
            last_error: null,
            updated_at: trx.fn.now(),
          })
          .returning('*');
        // Wakes idle workers, as new events do.
        await wakeAtCommit(trx);
        return serialize(updated!);
      },
    },
  },
});
