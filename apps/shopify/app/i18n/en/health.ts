/** Program health on the dashboard: per running program, this period against the one before. */
export const health = {
  title: 'Program health',
  period: '{range} against {previous} ({timezone})',
  columns: { program: 'Program', active: 'Members active', completions: 'Completions', rewards: 'Rewards issued' },
  kinds: { streak: 'Streak', challenge: 'Challenge', mission: 'Mission' },
  periods: { daily: 'daily', weekly: 'weekly', monthly: 'monthly' },
  previous: 'previous period: {value}',
  up: 'up {percent}%',
  down: 'down {percent}%',
  same: 'no change',
  new: 'new',
  chartOf: 'Members active per day of',
  activePerDay: '{name}: members active per day',
  emptyTitle: 'No live streaks, challenges or missions yet',
  emptyBody: 'Once a streak, challenge or mission is live, this shows how many members take part, complete it and earn rewards.',
  create: 'Create a streak',
};
