import type { Resource } from '../records/resource.js';
import { accountUser } from './account_user.js';
import { apikey } from './apikey.js';
import { challenge, milestone, mission, streak } from './definitions.js';
import { coupon, reward } from './rewards.js';

export const resources: Resource[] = [accountUser, apikey, streak, challenge, mission, milestone, reward, coupon];
