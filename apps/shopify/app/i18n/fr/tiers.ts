import type { Messages } from '../messages';

export const tiers: Messages['tiers'] = {
  pointsWord: 'points',
  list: {
    title: 'Niveaux VIP',
    new: 'Nouveau niveau',
    intro:
      'Les membres progressent dans ces niveaux grâce aux {points} qu’ils gagnent. Un niveau multiplie ce que gagnent ses membres et peut attribuer une récompense une seule fois, la première fois qu’ils l’atteignent.',
    window: {
      months:
        'Le niveau d’un membre tient compte de ce qu’il a gagné en {points} au cours des {months} derniers mois : les membres qui n’achètent plus redescendent à mesure que leurs {points} sortent de cette période.',
      lifetime: 'Le niveau d’un membre tient compte de tout ce qu’il a gagné en {points} : personne ne redescend.',
    },
    settings: 'Paramètres des points',
    pointsOff: 'Les points sont désactivés : personne ne gagne de {points} ni ne monte de niveau tant que vous ne les activez pas.',
    from: 'À partir de {threshold} {points}',
    earns: '{points} ×{multiplier}',
    earnsUsual: '{points} sans multiplicateur',
    entryReward: 'Récompense à l’arrivée : {reward}',
    members: { one: '{count} membre', other: '{count} membres' },
    noEntryReward: 'Aucune récompense à l’arrivée',
    goneReward: 'une récompense qui n’existe plus',
    allRecords: 'Tous les niveaux sous forme d’éléments',
    empty: {
      heading: 'Récompensez vos meilleurs clients avec des niveaux VIP',
      body: 'Les membres qui gagnent plus de {points} atteignent des niveaux supérieurs, y gagnent plus vite et reçoivent une récompense à leur arrivée, comme Argent et Or.',
      action: 'Créer le premier niveau',
    },
  },
  onPointsPage: {
    title: 'Niveaux VIP',
    body: 'Les membres qui gagnent plus de points atteignent des niveaux qui multiplient ce qu’ils gagnent et attribuent une récompense à l’arrivée.',
    action: 'Modifier les niveaux VIP',
  },
  editor: {
    newTitle: 'Nouveau niveau',
    deleteMembers: {
      one: '1 membre est actuellement dans ce niveau : il ne sera dans aucun niveau jusqu’à ce que ses prochains points, ou le calcul quotidien, le placent dans un autre.',
      other:
        '{count} membres sont actuellement dans ce niveau : ils ne seront dans aucun niveau jusqu’à ce que leurs prochains points, ou le calcul quotidien, les placent dans un autre.',
    },
    sections: { tier: 'Niveau', perks: 'Avantages', shopper: 'Ce que voient les clients' },
    name: { label: 'Nom', help: 'Les clients le voient dans le widget et dans leur compte, p. ex. Or.' },
    threshold: {
      label: '{points} pour l’atteindre',
      help: 'Les membres atteignent ce niveau dès que ce qu’ils ont gagné en {points} sur la période de calcul des niveaux atteint ce nombre. 0 : chaque membre commence ici.',
      taken: '{tier} commence aussi à ce nombre : donnez à chaque niveau en ligne un nombre qui lui est propre.',
    },
    multiplier: {
      label: 'Multiplicateur de points',
      help: 'Multiplie les {points} que gagnent les membres de ce niveau, de 1 à 10, p. ex. 1,5 (arrondi à l’inférieur).',
      oneDecimal: '{label} peut avoir une décimale au plus, p. ex. 1,5.',
    },
    entryReward: {
      label: 'Récompense à l’arrivée',
      help: 'Attribuée une fois par membre, la première fois qu’il atteint ce niveau. Un membre qui saute un niveau ne reçoit que la récompense du niveau où il arrive.',
      none: 'Aucune récompense',
    },
    status: { help: 'Seuls les niveaux en ligne comptent des membres et sont visibles par les clients.' },
    description: {
      label: 'Ce que reçoivent les membres de ce niveau',
      help: 'Les clients le lisent à côté du niveau, p. ex. «\u00a0Livraison gratuite sur chaque commande\u00a0».',
    },
  },
};
