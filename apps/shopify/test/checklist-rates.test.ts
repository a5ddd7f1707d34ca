import { describe, expect, it } from 'vitest';
import { earnsByRates } from '../app/admin/onboarding/checklist.server';
import type { RecordOf } from '../app/core/records.server';

/** A points setting that earns by nothing, as the core makes one. */
const idle = {
  id: 's',
  status: 'draft',
  pointsPerCurrencyUnit: 0,
  pointsPerOrder: 0,
  pointsOnSignUp: 0,
  pointsOnNewsletter: 0,
  pointsOnBirthday: 0,
  pointsOnReferral: 0,
  pointsOnReferredOrder: 0,
  pointsOnFollow: 0,
} as RecordOf<'points_setting'>;

describe('a draft points setting with a way to earn (a program the checklist lists)', () => {
  it('earns by a rate above 0; follow points only with a profile to follow', () => {
    expect(earnsByRates(idle)).toBe(false);
    expect(earnsByRates({ ...idle, pointsOnBirthday: 50 })).toBe(true);
    expect(earnsByRates({ ...idle, pointsOnFollow: 25 })).toBe(false);
    expect(earnsByRates({ ...idle, pointsOnFollow: 25, tiktokUrl: 'https://www.tiktok.com/@shop' })).toBe(true);
    expect(earnsByRates({ ...idle, pointsOnFollow: 0, tiktokUrl: 'https://www.tiktok.com/@shop' })).toBe(false);
  });
});
