/** A finite number's shortest decimal text as an integer and a power of ten: 19.99 → 1999 × 10^-2. */
function scaled(n: number): [bigint, number] {
  const [mantissa = '0', exponent = '0'] = String(n).toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? [digits, scale] : [digits * 10n ** BigInt(-scale), 0];
}

/**
 * Activity values are decimals as clients send them (10.10, 9.95) and are kept as doubles: a sum or
 * difference of them is worked out on their decimal texts and rounded once, to the nearest double,
 * so 10.10 + 9.95 + 9.95 is 30 (binary floating point makes it 29.999999999999996, which misses a
 * target of 30), 19.99 less 10.33 leaves 9.66 to reverse (not 9.659999999999998, less than a refund
 * of 9.66), and 19.99 less 19.9899999999999 leaves 1e-13 (not 9.9475983006414e-14).
 */
export function decimalSum(a: number, b: number): number {
  // Whole numbers, every count log's 1 among them, add exactly as doubles.
  if (Number.isSafeInteger(a) && Number.isSafeInteger(b) && Number.isSafeInteger(a + b)) return a + b;
  const [x, xs] = scaled(a);
  const [y, ys] = scaled(b);
  const scale = Math.max(xs, ys);
  return Number(`${x * 10n ** BigInt(scale - xs) + y * 10n ** BigInt(scale - ys)}e-${scale}`);
}
