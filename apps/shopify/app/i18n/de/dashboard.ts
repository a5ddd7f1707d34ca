import type { Messages } from '../messages';

export const dashboard: Messages['dashboard'] = {
  title: 'Loyalty-Übersicht',
  membersActive: 'Aktive Mitglieder',
  logs: 'Aktivitäten',
  rewardsIssued: 'Ausgegebene Prämien',
  logsPerDay: 'Aktivitäten pro Tag',
  membersActivePerDay: 'Aktive Mitglieder pro Tag',
  rewardsIssuedPerDay: 'Ausgegebene Prämien pro Tag',
  completionRates: 'Abschlussquoten (begonnen {from} – {to}, {timezone})',
  kinds: { streak: 'Serien', challenge: 'Challenges', mission: 'Missionen' },
  completedOf: '{completed} von {started}',
  overall: 'Insgesamt: {streak} Serien, {challenge} Challenges, {mission} Missionen.',
};
