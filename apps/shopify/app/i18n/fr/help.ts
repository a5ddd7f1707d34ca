import type { Messages } from '../messages';

export const help: Messages['help'] = {
  title: 'Aide',
  footer: 'En savoir plus : {topic}',
  footerGeneral: 'En savoir plus dans l’aide',
  topics: {
    setup: {
      title: 'Premiers pas',
      body: 'Le guide de configuration du tableau de bord vous accompagne pour créer votre premier programme, activer le widget de fidélité dans votre thème et vérifier que les clients le voient.',
    },
    programs: {
      title: 'Séries, défis et missions',
      body: 'Une série récompense les membres qui reviennent période après période, un défi ceux qui atteignent un objectif sur une période, une mission ceux qui accomplissent une liste de tâches. Chacun peut avoir des paliers qui attribuent des récompenses en chemin.',
    },
    points: {
      title: 'Points et niveaux VIP',
      body: 'Les membres gagnent des points sur leurs commandes, à la création de leur compte, en s’abonnant à votre newsletter, le jour de leur anniversaire, en suivant votre boutique sur les réseaux sociaux, en parrainant des amis et aux paliers, et les dépensent en récompenses auxquelles vous donnez un coût en points. Les niveaux VIP suivent les points qu’un membre a gagnés sur la période de calcul des niveaux : chaque niveau peut multiplier ce que gagnent ses membres et attribuer une récompense à l’arrivée. Si vous venez d’une autre application de fidélité, importez les soldes de vos clients avec un fichier CSV sur la page Points.',
    },
    rewards: {
      title: 'Récompenses',
      body: 'Une récompense est ce qu’un membre reçoit pour un palier ou pour avoir terminé un programme : une réduction Shopify, un code issu de codes que vous importez ou que l’application génère, ou du crédit en magasin.',
    },
    earnings: {
      title: 'Ce que rapporte votre programme',
      body: 'Le tableau de bord compare les ventes des membres de votre programme à celles des membres qui en sont exclus : vous voyez ainsi le chiffre d’affaires qu’apporte votre programme, et non des ventes qui auraient eu lieu de toute façon.',
    },
    leaderboards: {
      title: 'Classements',
      body: 'Un classement range les membres d’un programme selon leur série en cours ou leur meilleure série, leur progression sur la période d’un défi ou le nombre de fois où ils ont terminé une mission. Les clients le voient dans un onglet du widget, sous le nom de votre choix.',
    },
    members: {
      title: 'Membres',
      body: 'Chaque client qui participe est un membre. La page d’un membre affiche sa progression, ses récompenses et ses codes, et renvoie vers la fiche client dans Shopify.',
    },
    notifications: {
      title: 'Notifications',
      body: 'Une règle de notification envoie un message quand quelque chose se produit dans votre programme, par exemple un palier atteint. Choisissez les moments, le canal et le message ; l’aperçu l’affiche avec des données d’exemple.',
    },
    emails: {
      title: 'Modèles d’e-mail',
      body: 'Un modèle d’e-mail contient l’objet et le message. Insérez des informations comme le prénom du membre depuis la liste à côté du message ; elles sont complétées pour chaque membre à l’envoi de l’e-mail.',
    },
    widget: {
      title: 'Widget et image de marque',
      body: 'Le widget est le panneau de fidélité que les clients ouvrent depuis un bouton de votre boutique. L’image de marque définit ses couleurs, la position du bouton et ses textes ; l’aperçu montre le vrai widget pendant que vous le modifiez.',
    },
    webhooks: {
      title: 'Webhooks',
      body: 'Les webhooks envoient les événements de votre programme vers un autre système que vous utilisez, par exemple un CRM.',
    },
    dataRequests: {
      title: 'Demandes de données',
      body: 'Lorsqu’un client demande ses données ou leur suppression, Shopify en informe l’application. Cette page liste ces demandes et ce que l’application a fait.',
    },
    advanced: {
      title: 'Tous les champs',
      body: 'Le menu Avancé de chaque éditeur ouvre tous les champs que le service de fidélité enregistre pour un élément. Vous en aurez rarement besoin : les éditeurs couvrent ce que voient les clients.',
    },
  },
};
