/**
 * Activity values are decimals as clients send them (10.10, 9.95) and are kept as doubles: a sum or
 * difference of them is taken back to the 15 significant digits a double holds exactly, so 10.10 +
 * 9.95 + 9.95 is 30 (binary floating point makes it 29.999999999999996, which misses a target of
 * 30), and 19.99 less 10.33 leaves 9.66 to reverse (not 9.659999999999998, less than a refund of 9.66).
 */
export const decimalSum = (a: number, b: number): number => Number((a + b).toPrecision(15));
