import type { Config } from '../config.js';
import { configureFields } from '../records/fields.js';
import type { Resource } from '../records/resource.js';
import * as accountUser from './account-user.js';
import * as activity from './activity.js';
import * as apikey from './apikey.js';
import * as definitions from './definitions.js';
import * as display from './display.js';
import * as integrations from './integrations.js';
import * as leaderboard from './leaderboard.js';
import * as notifications from './notifications.js';
import * as points from './points.js';
import * as rewardLog from './reward-log.js';
import * as rewards from './rewards.js';
import * as upload from './upload.js';
import * as webhooks from './webhooks.js';

/** The resource modules; each of their exported definitions is served. */
const MODULES: Record<string, unknown>[] = [
  accountUser,
  activity,
  apikey,
  definitions,
  display,
  integrations,
  leaderboard,
  notifications,
  points,
  rewardLog,
  rewards,
  upload,
  webhooks,
];

const isResource = (value: unknown): value is Resource =>
  typeof value === 'object' &&
  value !== null &&
  'slug' in value &&
  typeof value.slug === 'string' &&
  'table' in value &&
  typeof value.table === 'string';

/** A definition that needs the service's settings is exported as `create<Name>(config)`. */
const isFactory = (name: string, value: unknown): value is (config: Config) => Resource =>
  typeof value === 'function' && /^create[A-Z]/.test(name);

/**
 * Every resource the API serves: the definitions the resource modules export, and those that
 * factories build from the config. A new resource needs no entry in a list.
 */
export function createResources(config: Config): Resource[] {
  const resources = MODULES.flatMap((module) =>
    Object.entries(module).flatMap(([name, value]) => (isResource(value) ? [value] : isFactory(name, value) ? [value(config)] : [])),
  );
  // Validators that depend on settings (eudIcon: uploads under the public URL) are bound here.
  return resources.map((r) => ({ ...r, fields: configureFields(r.fields, { publicUrl: config.publicUrl }) }));
}
