import { config } from '../config.server';
import { ChecklistMarksStore } from './checklist-marks.server';
import { EarningRulesStore } from './earning-rules.server';
import { pool } from './pool.server';
import { PgSessionStorage } from './sessions.server';
import { ShopStore } from './shops.server';
import { TemplateLaunchesStore } from './template-launches.server';

// The app's stores on the process's pool. Each asks for the pool when it queries, so loading them
// connects nothing.

/** Shops, their credentials (encrypted) and their data requests. */
export const shops = new ShopStore(pool, config.encryptionKey);
/** Shopify's sessions for the Shopify app (shopify.server.ts), their access tokens encrypted. */
export const sessionStorage = new PgSessionStorage(pool, config.encryptionKey);
export const checklistMarks = new ChecklistMarksStore(pool);
/** What feeds each streak and challenge by itself: paid orders or storefront visits. */
export const earningRules = new EarningRulesStore(pool);
/** What the onboarding's templates created, so a launch retried finds it instead of making it again. */
export const templateLaunches = new TemplateLaunchesStore(pool);
