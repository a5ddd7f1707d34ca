import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: 'Panoramica',
    streaks: 'Serie',
    challenges: 'Sfide',
    missions: 'Missioni',
    leaderboards: 'Classifiche',
    rewards: 'Premi',
    members: 'Membri',
    points: 'Punti',
    tiers: 'Livelli VIP',
    widget: 'Widget',
    webhooks: 'Webhook',
    notifications: 'Notifiche',
    dataRequests: 'Richieste di dati',
  },
  save: 'Salva',
  cancel: 'Annulla',
  discard: 'Rimuovi',
  delete: 'Elimina',
  create: 'Crea',
  saved: 'Salvato',
  created: 'Creato',
  deleted: 'Eliminato',
  confirmDelete: {
    title: 'Eliminare {name}?',
    body: 'L’operazione non può essere annullata.',
  },
  show: 'Mostra',
  actions: 'Azioni',
  from: 'Da',
  to: 'A',
  unavailable: {
    title: 'Il servizio fedeltà non ha risposto',
    body: 'Non è stato possibile caricare questa pagina. Nulla di ciò che hai configurato è cambiato; riprova tra un minuto.',
    action: 'Riprova',
  },
  back: 'Indietro',
  notFound: {
    title: 'Pagina non trovata',
    body: 'Questa pagina non esiste, oppure ciò che mostrava è stato eliminato.',
    action: 'Vai alla panoramica',
  },
  refused: {
    title: 'Questa pagina non può eseguire l’operazione',
    body: 'L’indirizzo è stato aperto in un modo che non supporta. Aprilo dalla navigazione dell’app.',
  },
  failed: {
    title: 'Si è verificato un problema',
    body: 'Non è stato possibile mostrare questa pagina. Riprova tra un minuto.',
  },
};
