import type { components } from '@loyalty/client';
import type { ShopAccount, ShopStore } from '../storage/shops.server';
import { accountClient } from './client.server';
import { createRecord, type RecordOf, records, updateRecord, whereEquals } from './records.server';

/**
 * The app's own webhook in each shop's account (CONTRACT §16): the core delivers the events the app
 * turns into Flow triggers and Shopify discounts, and the revocations that end those discounts
 * (app/loop/), to the app's events URL, signed with a secret the app keeps encrypted with the shop.
 */

/** The codes whose progress, log or point entry fires a Flow trigger (and issues reward logs with milestones). */
export const TRIGGER_EVENT_CODES = [
  'streak_progress_milestone_completed',
  'streak_progress_completed',
  'streak_progress_to_be_broken',
  'streak_progress_broken',
  'streak_progress_freeze_used',
  'challenge_progress_milestone_completed',
  'challenge_progress_completed',
  'mission_progress_milestone_completed',
  'mission_progress_completed',
  'points_earned',
  'points_redeemed',
  'tier_changed',
  'points_to_expire',
] as const satisfies readonly components['schemas']['EventCode'][];

/** CONTRACT §17: a held reward log issued by the scheduler, and the reversals that revoke reward logs. */
export const HOLD_EVENT_CODES = [
  'reward_log_issued',
  'streak_progress_reversed',
  'challenge_progress_reversed',
  'mission_progress_reversed',
] as const satisfies readonly components['schemas']['EventCode'][];

export const SUBSCRIBED_EVENT_CODES = [...TRIGGER_EVENT_CODES, ...HOLD_EVENT_CODES];

/**
 * Makes sure the shop's account has exactly one live webhook to the app for the codes it needs, and
 * that the app holds its secret. Idempotent: it finds the stored one, else one already pointing at
 * the app (a crash between create and store), and creates only when there is none. Callers hold the
 * shop's lock, so two processes never both create.
 */
export async function ensureCoreWebhook(
  deps: { coreUrl: string; eventsUrl: string },
  store: ShopStore,
  account: ShopAccount,
): Promise<void> {
  const api = accountClient(deps.coreUrl, account);
  const stored = await store.coreWebhook(account.shop);
  const webhooks = records(api, 'webhook');
  let hook: RecordOf<'webhook'> | null = null;
  if (stored) {
    const found = await webhooks.get(stored.id);
    if (found.ok) hook = found.data;
    else if (found.failure.status !== 404) throw new Error(`core answered ${found.failure.status} reading the app's webhook`);
  }
  if (!hook) {
    const listed = await webhooks.list({ filters: whereEquals('endpointUrl', deps.eventsUrl), limit: 1 });
    if (!listed.ok) throw new Error(`core answered ${listed.failure.status} listing webhooks`);
    hook = listed.data[0] ?? null;
  }
  const wanted = { status: 'live' as const, endpointUrl: deps.eventsUrl, eventCodes: [...SUBSCRIBED_EVENT_CODES] };
  if (!hook) {
    const made = await createRecord(api, 'webhook', { name: 'Shopify app (Flow triggers and discounts)', ...wanted });
    if (!made.ok) throw new Error(`core answered ${made.failure.status} creating the app's webhook`);
    hook = made.data;
  } else {
    const codes = new Set(hook.eventCodes ?? []);
    if (
      hook.status !== 'live' ||
      hook.endpointUrl !== deps.eventsUrl ||
      codes.size !== SUBSCRIBED_EVENT_CODES.length ||
      SUBSCRIBED_EVENT_CODES.some((c) => !codes.has(c))
    ) {
      const patched = await updateRecord(api, 'webhook', hook.id, wanted);
      if (!patched.ok) throw new Error(`core answered ${patched.failure.status} repairing the app's webhook`);
      hook = patched.data;
    }
  }
  if (!hook.webhookSecret) throw new Error("the core returned the app's webhook without its secret");
  if (stored?.id !== hook.id || stored.secret !== hook.webhookSecret)
    await store.saveCoreWebhook(account.shop, hook.id, hook.webhookSecret);
}
