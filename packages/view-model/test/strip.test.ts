import { describe, expect, it } from 'vitest';
import type { StreakProgress, TaskProgress } from '../src/model.js';
import { keyStart, streakStrip } from '../src/progress.js';

const task = (periodKey: string, completed: boolean): TaskProgress => ({
  taskId: null,
  periodKey,
  currentProgressValue: completed ? 1 : 0,
  targetValue: 1,
  taskProgressStatus: completed ? 'completed' : 'in_progress',
});

const progress = (currentProgressValue: number, frozenPeriodKeys: string[], taskProgress: TaskProgress | null): StreakProgress => ({
  streakId: 's',
  streakProgressStatus: 'in_progress',
  currentProgressValue,
  streakToBeBrokenAt: null,
  freezesAvailable: 0,
  frozenPeriodKeys,
  taskProgress,
});

const states = (slots: { key: string; state: string }[]) => slots.map((s) => `${s.key} ${s.state}`);

describe("a streak's latest periods, rebuilt from its keys", () => {
  it('marks a frozen day inside the run and opens the next day after a completed one', () => {
    expect(states(streakStrip(progress(4, ['2026-11-22'], task('2026-11-24', true)), 'daily'))).toEqual([
      '2026-11-20 done',
      '2026-11-21 done',
      '2026-11-22 frozen',
      '2026-11-23 done',
      '2026-11-24 done',
      '2026-11-25 next',
    ]);
  });

  it('ends with frozen periods the sweep covered after the last visit, then the one now required', () => {
    expect(states(streakStrip(progress(2, ['2026-11-23', '2026-11-24'], task('2026-11-22', true)), 'daily'))).toEqual([
      '2026-11-21 done',
      '2026-11-22 done',
      '2026-11-23 frozen',
      '2026-11-24 frozen',
      '2026-11-25 next',
    ]);
  });

  it('keeps the current period open while unfinished, across an ISO year of 53 weeks, and shows at most seven', () => {
    expect(states(streakStrip(progress(9, ['2026-W53'], task('2027-W02', false)), 'weekly'))).toEqual([
      '2026-W49 done',
      '2026-W50 done',
      '2026-W51 done',
      '2026-W52 done',
      '2026-W53 frozen',
      '2027-W01 done',
      '2027-W02 next',
    ]);
    expect(states(streakStrip(progress(2, [], task('2027-01', true)), 'monthly'))).toEqual([
      '2026-12 done',
      '2027-01 done',
      '2027-02 next',
    ]);
  });

  it('reads week keys as their Monday', () => {
    expect(new Date(keyStart('2026-W01', 'weekly')).toISOString()).toBe('2025-12-29T00:00:00.000Z');
    expect(new Date(keyStart('2026-W53', 'weekly')).toISOString()).toBe('2026-12-28T00:00:00.000Z');
    expect(new Date(keyStart('2021-W01', 'weekly')).toISOString()).toBe('2021-01-04T00:00:00.000Z');
  });
});
