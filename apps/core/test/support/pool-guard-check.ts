import { afterAll, expect } from 'vitest';
import { poolViolations } from './pool-guard.js';

// Every test file, whatever it tests, also shows that no request waited on the pool while holding it.
afterAll(() => {
  expect(poolViolations, 'requests that held one pooled connection and asked for another').toEqual([]);
});
