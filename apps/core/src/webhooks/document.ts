import type { EventCode } from '../events/codes.js';
import type { LogKind } from '../engine/types.js';

/*
 * What a webhook delivery carries (CONTRACT §9, §10, §14), for the OpenAPI document: the envelope
 * and, per event code, the payload the engine writes. Receivers (the Shopify app) type and check
 * deliveries from it.
 */

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const uuid = { type: 'string', format: 'uuid' };
const time = { type: 'string', format: 'date-time' };
const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });
const object = (properties: Record<string, Json>, required = Object.keys(properties)): Json => ({ type: 'object', required, properties });

const PASCAL: Record<LogKind, string> = { streak: 'Streak', challenge: 'Challenge', mission: 'Mission' };

/** Events about a log: the log create response, its definition joined. */
const logPayload = (kind: LogKind): Json => object({ [`${kind}Log`]: ref(`${PASCAL[kind]}LogCreated`) });

/** Events about a progress (breaks, failures, warnings, freezes): the progress, its definition and next milestone. */
const progressPayload = (kind: LogKind, extra: Record<string, Json> = {}): Json =>
  object({
    [`${kind}Progress`]: {
      allOf: [ref(`${PASCAL[kind]}Progress`), object({ [kind]: nullable(ref(PASCAL[kind])), nextMilestone: nullable(ref('Milestone')) })],
    },
    ...extra,
  });

/**
 * A reversal that changed a progress (CONTRACT §17): the log with its reversals, the progress after,
 * the record a split run came from, and the reward logs it revoked.
 */
const reversedPayload = (kind: LogKind): Json =>
  object(
    {
      [`${kind}Log`]: ref(`${PASCAL[kind]}Log`),
      [`${kind}Progress`]: ref(`${PASCAL[kind]}Progress`),
      splitFromProgress: ref(`${PASCAL[kind]}Progress`),
      revokedRewardLogs: { type: 'array', items: ref('RewardLog') },
    },
    [`${kind}Log`, `${kind}Progress`, 'revokedRewardLogs'],
  );

/** Each event code's payload; a code missing here fails to compile. */
export const EVENT_PAYLOADS: Record<EventCode, Json> = {
  streak_progress_in_progress: logPayload('streak'),
  streak_progress_non_milestone_completed: logPayload('streak'),
  streak_progress_milestone_completed: logPayload('streak'),
  streak_progress_completed: logPayload('streak'),
  streak_progress_broken: progressPayload('streak'),
  streak_progress_to_be_broken: progressPayload('streak'),
  streak_progress_freeze_used: progressPayload('streak', { streak: nullable(ref('Streak')), frozenPeriodKey: { type: 'string' } }),
  streak_progress_freeze_earned: progressPayload('streak', { streak: nullable(ref('Streak')) }),
  challenge_progress_in_progress: logPayload('challenge'),
  challenge_progress_milestone_completed: logPayload('challenge'),
  challenge_progress_completed: logPayload('challenge'),
  challenge_progress_failed: progressPayload('challenge'),
  challenge_progress_to_be_failed: progressPayload('challenge'),
  mission_progress_in_progress: logPayload('mission'),
  mission_progress_milestone_completed: logPayload('mission'),
  mission_progress_completed: logPayload('mission'),
  mission_progress_failed: progressPayload('mission'),
  streak_progress_reversed: reversedPayload('streak'),
  challenge_progress_reversed: reversedPayload('challenge'),
  mission_progress_reversed: reversedPayload('mission'),
  reward_log_issued: object({ rewardLog: ref('RewardLog') }),
  points_earned: object({ pointEntry: ref('PointEntry'), member: ref('AccountUser') }),
  points_redeemed: object({ pointEntry: ref('PointEntry'), member: ref('AccountUser'), rewardLog: ref('RewardLog') }),
  points_to_expire: object({ member: ref('AccountUser'), expiringPoints: { type: 'integer' }, expiresAt: time }),
  tier_changed: object({ member: ref('AccountUser'), tierBefore: nullable(ref('Tier')), tierAfter: nullable(ref('Tier')) }),
};

/** The document's schemas of a delivery: `WebhookEvent` (one per code) and `WebhookDelivery`. */
export const deliverySchemas: Record<string, Json> = {
  WebhookEvent: {
    description: 'One event of a delivery; `payload` is what `eventCode` says (CONTRACT §9).',
    oneOf: Object.entries(EVENT_PAYLOADS).map(([code, payload]) =>
      object({ id: uuid, eventCode: { const: code }, createdAt: time, ownedById: nullable(uuid), payload }),
    ),
  },
  WebhookDelivery: {
    description: 'The body of a webhook delivery: one webhook log and its events (today exactly one).',
    ...object({ id: uuid, accountId: uuid, createdAt: time, events: { type: 'array', minItems: 1, items: ref('WebhookEvent') } }),
  },
};

/** The document's `webhooks`: what the service POSTs to a webhook's endpointUrl. */
export const deliveryWebhooks: Json = {
  loyaltyEvents: {
    post: {
      summary: 'Events a webhook subscribes to, POSTed to its endpointUrl and signed with its webhookSecret (CONTRACT §10)',
      parameters: [
        {
          name: 'x-service-signature',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: 'Hex HMAC-SHA256 of the raw body keyed with the webhookSecret.',
        },
        { name: 'webhook-id', in: 'header', required: true, schema: uuid, description: 'The webhook log id; receivers deduplicate on it.' },
        { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Unix seconds.' },
        {
          name: 'webhook-signature',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: 'Standard Webhooks signature (v1,…).',
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookDelivery') } } },
      responses: { '2XX': { description: 'Delivered; anything else, or no answer in time, is retried.' } },
    },
  },
};
