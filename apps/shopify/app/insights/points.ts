/** The core summary's points (CONTRACT §19): the range's entries by reason, and what members hold now. */
export interface PointsFigures {
  status: string;
  earned: number;
  redeemed: number;
  reversed: number;
  expired: number;
  adjusted: number;
  outstanding: number;
  membersWithPoints: number;
}
