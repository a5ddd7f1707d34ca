/**
 * The holdout comparison's statistics (CONTRACT §18), kept apart from the database so a test can
 * check them against its own computation.
 *
 * The outcome is net revenue per ordering customer in the period. The groups are independent
 * (a hash of the definition and the customer decides), so the relative lift `mean_in / mean_out − 1`
 * gets its 95 % interval by the delta method on the log of the ratio:
 * `se² = s_in² / (n_in · mean_in²) + s_out² / (n_out · mean_out²)`, interval `exp(log r ± 1.96 · se) − 1`,
 * which stays above −100 % and is asymmetric like the ratio itself. The absolute difference gets
 * Welch's interval `diff ± 1.96 · √(s_in² / n_in + s_out² / n_out)`; with at least 30 customers a
 * group (below that the comparison is "not enough orders yet"), the normal quantile stands in for
 * Student's t.
 */

/** Fewer ordering customers than this in either group: not enough orders yet. */
export const MIN_GROUP = 30;

const Z95 = 1.959963984540054;

export interface GroupMoments {
  /** Ordering customers. */
  n: number;
  /** Mean net revenue per ordering customer. */
  mean: number;
  /** Sample variance (n − 1) of it. */
  variance: number;
}

export interface Lift {
  /** mean_in / mean_out − 1, and its 95 % interval. */
  relative: number;
  relativeLow: number;
  relativeHigh: number;
  /** mean_in − mean_out (money), and Welch's 95 % interval. */
  difference: number;
  differenceLow: number;
  differenceHigh: number;
}

/** The lift of the members in over the held out; null when a group is too small or spent nothing. */
export function lift(inGroup: GroupMoments, outGroup: GroupMoments): Lift | null {
  if (inGroup.n < MIN_GROUP || outGroup.n < MIN_GROUP || inGroup.mean <= 0 || outGroup.mean <= 0) return null;
  const ratio = inGroup.mean / outGroup.mean;
  const logSe = Math.sqrt(inGroup.variance / (inGroup.n * inGroup.mean ** 2) + outGroup.variance / (outGroup.n * outGroup.mean ** 2));
  const difference = inGroup.mean - outGroup.mean;
  const se = Math.sqrt(inGroup.variance / inGroup.n + outGroup.variance / outGroup.n);
  return {
    relative: ratio - 1,
    relativeLow: ratio * Math.exp(-Z95 * logSe) - 1,
    relativeHigh: ratio * Math.exp(Z95 * logSe) - 1,
    difference,
    differenceLow: difference - Z95 * se,
    differenceHigh: difference + Z95 * se,
  };
}
