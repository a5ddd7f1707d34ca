import type { Knex } from 'knex';
import * as tenancy from './20261121000100_tenancy.js';
import * as members from './20261121000200_members.js';
import * as definitions from './20261121000300_definitions.js';
import * as rewards from './20261121000400_rewards.js';
import * as activity from './20261121000500_activity.js';
import * as eventsAndWebhooks from './20261121000600_events_and_webhooks.js';
import * as notifications from './20261121000700_notifications.js';
import * as display from './20261121000800_display.js';
import * as optimisticWrites from './20261121000900_optimistic_writes.js';
import * as credentialChanges from './20261121001000_credential_changes.js';
import * as latestRunIndex from './20261121001100_latest_run_index.js';
import * as eventTraceParent from './20261124000100_event_trace_parent.js';
import * as channelOptOuts from './20261124000200_channel_opt_outs.js';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** In order of their timestamps; add new migrations at the end. */
export const migrations: Migration[] = [
  tenancy, members, definitions, rewards, activity, eventsAndWebhooks, notifications, display, optimisticWrites,
  credentialChanges, latestRunIndex, eventTraceParent, channelOptOuts,
];
