import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('refuses durations a timer or a timestamp cannot hold, naming the variable', () => {
    expect(() => loadConfig({ LOYALTY_LATE_LOG_GRACE_SECONDS: '10000000000000' })).toThrow(
      /LOYALTY_LATE_LOG_GRACE_SECONDS must be an integer >= 0 and <= 315360000/,
    );
    expect(() => loadConfig({ LOYALTY_SCHEDULER_INTERVAL_MS: '3000000000' })).toThrow(
      /LOYALTY_SCHEDULER_INTERVAL_MS must be an integer >= 1 and <= 2147483647/,
    );
    expect(loadConfig({ LOYALTY_LATE_LOG_GRACE_SECONDS: '315360000' }).lateLogGraceSeconds).toBe(315_360_000);
  });
});
