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
    tiers: 'VIP-Stufen',
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
  actions: 'Aktionen',
  from: 'Von',
  to: 'Bis',
  unavailable: {
    title: 'Der Loyalty-Dienst hat nicht geantwortet',
    body: 'Das konnte gerade nicht geladen werden. An deinen Einstellungen hat sich nichts geändert; versuche es in einer Minute noch einmal.',
    action: 'Erneut versuchen',
  },
  back: 'Zurück',
  notFound: {
    title: 'Nicht gefunden',
    body: 'Diese Seite gibt es nicht, oder was sie zeigte, wurde gelöscht.',
    action: 'Zum Dashboard',
  },
  refused: {
    title: 'Das geht auf dieser Seite nicht',
    body: 'Die Adresse wurde auf eine Art aufgerufen, die sie nicht annimmt. Öffne sie über die Navigation der App.',
  },
  failed: {
    title: 'Etwas ist schiefgelaufen',
    body: 'Diese Seite konnte nicht angezeigt werden. Versuche es in einer Minute noch einmal.',
  },
};
