import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: 'Übersicht',
    streaks: 'Serien',
    challenges: 'Challenges',
    missions: 'Missionen',
    leaderboards: 'Bestenlisten',
    rewards: 'Prämien',
    members: 'Mitglieder',
    points: 'Punkte',
    widget: 'Widget',
    webhooks: 'Webhooks',
    notifications: 'Benachrichtigungen',
    dataRequests: 'Datenanfragen',
  },
  save: 'Speichern',
  cancel: 'Abbrechen',
  discard: 'Verwerfen',
  delete: 'Löschen',
  create: 'Erstellen',
  saved: 'Gespeichert',
  created: 'Erstellt',
  deleted: 'Gelöscht',
  confirmDelete: {
    title: '{name} löschen?',
    body: 'Das kannst du nicht rückgängig machen.',
  },
  show: 'Anzeigen',
  from: 'Von',
  to: 'Bis',
  coreFailed: 'Der Loyalty-Dienst antwortete mit {status}.',
};
