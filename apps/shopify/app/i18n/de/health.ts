import type { Messages } from '../messages';

/** Programmzustand in der Übersicht: je laufendem Programm dieser Zeitraum gegen den davor. */
export const health: Messages['health'] = {
  title: 'Programmzustand',
  period: '{range} gegenüber {previous} ({timezone})',
  columns: { program: 'Programm', active: 'Aktive Mitglieder', completions: 'Abschlüsse', rewards: 'Ausgegebene Prämien' },
  kinds: { streak: 'Serie', challenge: 'Challenge', mission: 'Mission' },
  periods: { daily: 'täglich', weekly: 'wöchentlich', monthly: 'monatlich' },
  previous: 'Vorzeitraum: {value}',
  up: 'plus {percent} %',
  down: 'minus {percent} %',
  same: 'unverändert',
  new: 'neu',
  chartOf: 'Aktive Mitglieder pro Tag für',
  activePerDay: '{name}: aktive Mitglieder pro Tag',
  emptyTitle: 'Noch keine aktiven Serien, Challenges oder Missionen',
  emptyBody:
    'Sobald eine Serie, Challenge oder Mission aktiv ist, siehst du hier, wie viele Mitglieder mitmachen, abschließen und Prämien erhalten.',
  create: 'Serie anlegen',
};
