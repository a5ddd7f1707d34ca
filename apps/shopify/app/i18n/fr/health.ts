import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: 'Santé des programmes',
  period: '{range} comparé à {previous} ({timezone})',
  columns: { program: 'Programme', active: 'Membres actifs', completions: 'Réussites', rewards: 'Récompenses attribuées' },
  kinds: { streak: 'Série', challenge: 'Défi', mission: 'Mission' },
  // Shown after the kind ("Série · par semaine"): worded to fit every kind's gender.
  periods: { daily: 'par jour', weekly: 'par semaine', monthly: 'par mois' },
  previous: 'période précédente : {value}',
  up: 'en hausse de {percent}\u00a0%',
  down: 'en baisse de {percent}\u00a0%',
  same: 'stable',
  new: 'nouveau',
  chartOf: 'Membres actifs par jour du programme',
  activePerDay: '{name} : membres actifs par jour',
  emptyTitle: 'Aucune série, aucun défi ni aucune mission en ligne pour l’instant',
  emptyBody:
    'Dès qu’une série, un défi ou une mission est en ligne, vous voyez ici combien de membres y participent, le terminent et gagnent des récompenses.',
  create: 'Créer une série',
};
