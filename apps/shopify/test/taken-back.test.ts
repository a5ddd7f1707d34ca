import { describe, expect, it } from 'vitest';
import { readTakenBack, runStatus, takenBackText } from '../app/earning/taken-back';

describe('what the app writes when it takes back an order’s earnings', () => {
  it('reads back what it wrote, without the refund’s id', () => {
    expect(readTakenBack(takenBackText(1234567890, '#1001'))).toEqual({ kind: 'refund', order: '#1001' });
    expect(readTakenBack(takenBackText('91', 'Order 7 of June'))).toEqual({ kind: 'refund', order: 'Order 7 of June' });
    expect(readTakenBack(takenBackText(null, '#1001'))).toEqual({ kind: 'cancellation', order: '#1001' });
  });

  it('leaves any other text alone: a merchant’s note, another client’s reason, nothing', () => {
    for (const text of ['Goodwill for the late parcel', 'refund of order #1001', 'order cancelled', 'reversal', '', null, undefined])
      expect(readTakenBack(text)).toBeNull();
  });
});

describe('a run every log of which was taken back', () => {
  it('reads as taken back, not as broken or failed: the core closes it as of its own start', () => {
    // A streak's first period began at local midnight, before its first log; a mission fails at its start.
    expect(runStatus('broken', '2026-12-01T00:00:00.000Z', '2026-12-01T09:30:00.000Z')).toBe('taken_back');
    expect(runStatus('failed', '2026-12-01T09:30:00.000Z', '2026-12-01T09:30:00.000Z')).toBe('taken_back');
    // A run the member lost ends after it began.
    expect(runStatus('broken', '2026-12-03T00:00:00.000Z', '2026-12-01T09:30:00.000Z')).toBe('broken');
    expect(runStatus('failed', '2026-12-08T09:30:00.000Z', '2026-12-01T09:30:00.000Z')).toBe('failed');
    expect(runStatus('in_progress', null, '2026-12-01T09:30:00.000Z')).toBe('in_progress');
    expect(runStatus('completed', '2026-12-01T00:00:00.000Z', null)).toBe('completed');
  });
});
