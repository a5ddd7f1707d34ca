import { afterAll, expect } from 'vitest';
import { poolViolations } from './pool-guard.js';

// Every test file, whatever it tests, also shows that no request waited on the pool while holding it.
// Emptied here: files share a worker's modules, so what one file recorded is not the next file's.
afterAll(() => {
  expect(poolViolations.splice(0), 'requests that held one pooled connection and asked for another').toEqual([]);
});
