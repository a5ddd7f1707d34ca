import { describe, expect, it } from 'vitest';
import { readTakenBack, takenBackText } from '../app/earning/taken-back';

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
