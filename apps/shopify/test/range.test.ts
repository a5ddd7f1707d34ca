import { describe, expect, it } from 'vitest';
import { dayRange } from '../app/insights/range';

const of = (query: string) => dayRange(new URL(`https://app.example/app?${query}`));

describe('the dashboard’s range', () => {
  it('reads a range picked end first the right way round, and leaves out what is no day, for the core’s default', () => {
    expect(of('from=2026-11-01&to=2026-11-30')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(of('from=2026-11-30&to=2026-11-01')).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(of('from=2026-11-30')).toEqual({ from: '2026-11-30' });
    expect(of('to=2026-02-30&from=1969-12-31')).toEqual({});
    expect(of('from=tomorrow&to=2026-11-30')).toEqual({ to: '2026-11-30' });
    expect(of('from=&to=')).toEqual({});
  });

  it('cuts a range longer than the core covers (366 days) to its last 366, and one from that long ago to its first', () => {
    expect(of('from=2025-01-01&to=2026-12-31')).toEqual({ from: '2025-12-31', to: '2026-12-31' });
    expect(of('from=2026-01-01&to=2026-12-31')).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(of('from=2024-01-01&to=2024-12-31')).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(dayRange(new URL('https://app.example/app?from=2020-03-01'), '2026-12-03')).toEqual({ from: '2020-03-01', to: '2021-03-01' });
    expect(dayRange(new URL('https://app.example/app?from=2026-01-01'), '2026-12-03')).toEqual({ from: '2026-01-01' });
  });
});
