/** The dashboard's numbers and charts. */
export const dashboard = {
  title: 'Loyalty dashboard',
  membersActive: 'Members active',
  logs: 'Logs',
  rewardsIssued: 'Rewards issued',
  logsPerDay: 'Logs per day',
  membersActivePerDay: 'Members active per day',
  rewardsIssuedPerDay: 'Rewards issued per day',
  completionRates: 'Completion rates (progress started {from} – {to}, {timezone})',
  kinds: { streak: 'Streaks', challenge: 'Challenges', mission: 'Missions' },
  completedOf: '{completed} of {started}',
  overall: 'Overall: {streak} streaks, {challenge} challenges, {mission} missions.',
};
