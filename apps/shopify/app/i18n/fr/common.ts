import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: 'Tableau de bord',
    streaks: 'Séries',
    challenges: 'Défis',
    missions: 'Missions',
    leaderboards: 'Classements',
    rewards: 'Récompenses',
    members: 'Membres',
    points: 'Points',
    tiers: 'Niveaux VIP',
    widget: 'Widget',
    webhooks: 'Webhooks',
    notifications: 'Notifications',
    dataRequests: 'Demandes de données',
  },
  save: 'Enregistrer',
  cancel: 'Annuler',
  discard: 'Ignorer',
  delete: 'Supprimer',
  create: 'Créer',
  saved: 'Enregistré',
  created: 'Créé',
  deleted: 'Supprimé',
  confirmDelete: {
    title: 'Supprimer {name} ?',
    body: 'Cette action est irréversible.',
  },
  show: 'Afficher',
  actions: 'Actions',
  from: 'Du',
  to: 'Au',
  unavailable: {
    title: 'Le service de fidélité n’a pas répondu',
    body: 'Le chargement a échoué pour le moment. Rien de ce que vous avez configuré n’a changé ; réessayez dans une minute.',
    action: 'Réessayer',
  },
  back: 'Retour',
  notFound: {
    title: 'Introuvable',
    body: 'Cette page n’existe pas, ou ce qu’elle affichait a été supprimé.',
    action: 'Accéder au tableau de bord',
  },
  refused: {
    title: 'Cette page ne permet pas cette action',
    body: 'L’adresse a été appelée d’une manière qu’elle n’accepte pas. Ouvrez-la depuis la navigation de l’application.',
  },
  failed: {
    title: 'Une erreur s’est produite',
    body: 'Cette page n’a pas pu s’afficher. Réessayez dans une minute.',
  },
};
