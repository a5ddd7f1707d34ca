import type { Messages } from '../messages';

export const health: Messages['health'] = {
  title: 'Stato dei programmi',
  period: '{range} rispetto a {previous} ({timezone})',
  columns: { program: 'Programma', active: 'Membri attivi', completions: 'Completamenti', rewards: 'Premi emessi' },
  /** Every kind is feminine in Italian (serie, sfida, missione), so `periods` agree with all of them. */
  kinds: { streak: 'Serie', challenge: 'Sfida', mission: 'Missione' },
  periods: { daily: 'giornaliera', weekly: 'settimanale', monthly: 'mensile' },
  previous: 'periodo precedente: {value}',
  up: 'in aumento del {percent}%',
  down: 'in calo del {percent}%',
  same: 'invariato',
  new: 'nuovo',
  chartOf: 'Membri attivi al giorno per',
  activePerDay: '{name}: membri attivi al giorno',
  emptyTitle: 'Ancora nessuna serie, sfida o missione attiva',
  emptyBody: 'Quando una serie, una sfida o una missione è attiva, qui vedi quanti membri partecipano, la completano e ottengono premi.',
  create: 'Crea una serie',
};
