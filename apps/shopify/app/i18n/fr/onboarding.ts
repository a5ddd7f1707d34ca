import type { Messages } from '../messages';

export const onboarding: Messages['onboarding'] = {
  title: 'Lancez votre programme de fidélité',
  progress: '{done} étapes terminées sur {total}',
  show: 'Afficher l’étape',
  hide: 'Masquer la liste',
  reopen: 'Afficher la liste de configuration',
  folded: 'Liste de configuration : {done} étapes terminées sur {total}.',
  done: 'Terminé',
  toDo: 'À faire',
  markDone: 'Marquer comme terminé',
  markUndone: 'Marquer comme non terminé',
  steps: {
    program: {
      title: '1. Choisissez un programme',
      intro:
        'Choisissez un programme prêt à l’emploi : il est créé en une seule étape, avec ses paliers et ses récompenses. Vous pourrez tout modifier par la suite.',
      choose: 'Choisir',
      chosen: 'Choisi',
      status: 'Lancement',
      live: 'En ligne dès maintenant : visible par les clients, qui y progressent',
      draft: 'En brouillon : rien ne change sur la boutique tant que vous ne le mettez pas en ligne',
      shopifyDiscounts: 'Attribuer les récompenses sous forme de réductions Shopify',
      shopifyDiscountsHelp:
        'Chaque récompense devient dans Shopify une réduction par code à usage unique pour ce client. Sinon, le service de fidélité génère ses propres codes.',
      language:
        'Les textes destinés aux clients sont rédigés dans la langue principale de votre boutique si le widget la propose, sinon en anglais.',
      create: 'Créer le programme',
      created: '«\u00a0{name}\u00a0» créé ({status}).',
      failed: 'Le programme n’a pas pu être créé : {message}',
      nothingKept: 'Rien n’a été conservé.',
      leftOver: 'Ces éléments n’ont pas pu être supprimés : {names}.',
      busy: 'Ce programme est déjà en cours de création. Patientez un instant, puis consultez vos programmes ci-dessous.',
      open: 'Ouvrir',
      openTiers: 'Ouvrir les niveaux VIP',
      goLive: 'Mettre en ligne',
      launched: '«\u00a0{name}\u00a0» est en ligne.',
      yours: 'Vos programmes',
      statuses: { live: 'En ligne', draft: 'Brouillon', paused: 'En pause' },
      kinds: { streak: 'Série', challenge: 'Défi', mission: 'Mission', points_setting: 'Points' },
      templates: {
        'daily-visit': {
          title: 'Série de visites quotidiennes',
          summary: 'Les clients reviennent chaque jour pendant une semaine.',
          creates: [
            'Une série quotidienne de 7 jours',
            'La visite d’un client connecté compte automatiquement, une fois par jour',
            'Une récompense à 3 jours (10\u00a0% de réduction) et à 7 jours (20\u00a0% de réduction)',
          ],
        },
        'weekly-freezes': {
          title: 'Série hebdomadaire avec jokers',
          summary: 'Une commande par semaine, aussi longtemps qu’ils le souhaitent.',
          creates: [
            'Une série hebdomadaire sans fin : chaque commande payée compte pour sa semaine',
            'Jusqu’à 2 jokers, un gagné toutes les 4 semaines, chacun couvrant une semaine manquée',
            'Une récompense à 4 semaines (10\u00a0% de réduction) et à 12 semaines (25\u00a0% de réduction), en attente 14 jours pour les retours',
          ],
        },
        'monthly-spend': {
          title: 'Défi d’achats du mois',
          summary: 'Les montants dépensés en produits par les commandes payées s’additionnent chaque mois calendaire.',
          creates: [
            'Un défi mensuel qui additionne le montant des produits des commandes payées jusqu’à {target} ; les remboursements reprennent leur part',
            'Une récompense à {half} ({halfOff} de réduction) et à {target} ({fullOff} de réduction), en attente 14 jours pour les retours',
            'Un classement des clients qui ont le plus dépensé dans le mois',
          ],
        },
        'welcome-mission': {
          title: 'Mission de bienvenue',
          summary: 'Les deux premières étapes d’un nouveau client.',
          creates: [
            'Tâches : créer un compte et payer une première commande, toutes deux comptées automatiquement',
            'Une récompense de bienvenue de 15\u00a0% une fois les deux accomplies, en attente 14 jours pour les retours',
          ],
        },
        'points-tiers': {
          title: 'Points et niveaux',
          summary: 'Les clients cumulent des points à chaque commande et les échangent contre des récompenses.',
          creates: [
            'Points activés : 1 point par unité de votre devise dépensée en produits, 100 points à la création du compte et 100 à l’anniversaire',
            'Parrainages : 500 points pour un client dont le lien amène un nouveau client, et 250 pour ce nouveau client sur sa première commande',
            'Récompenses à échanger : {pointsOff} de réduction pour 500 points, 10\u00a0% de réduction pour 1\u00a0000 points',
            'Niveaux selon les points gagnés sur 12 mois : Argent à partir de 500 (points ×1,2), Or à partir de 1\u00a0500 (points ×1,5)',
          ],
        },
      },
    },
    embed: {
      title: '2. Affichez-le sur votre boutique',
      intro:
        'Activez l’intégration d’application «\u00a0Loyalty widget\u00a0» dans votre thème publié : l’éditeur de thème s’ouvre dans un nouvel onglet avec l’intégration déjà activée.',
      openEditor: 'Activer le widget dans l’éditeur de thème',
      then: 'Cliquez ensuite sur Enregistrer dans l’éditeur de thème. Cette étape se coche d’elle-même quand vous revenez sur cet onglet.',
      missingRecords: 'Le widget a besoin d’un bouton, d’un thème et de textes en ligne.',
      createRecords: 'Les créer',
      recordsCreated: 'Le bouton, le thème et les textes du widget sont prêts.',
      ok: 'Le widget est activé dans votre thème publié «\u00a0{theme}\u00a0».',
      reasons: {
        unreadable: 'Votre thème publié n’a pas pu être lu : {detail}',
        no_main_theme: 'Votre boutique n’a aucun thème publié.',
        not_added: 'Le widget n’est pas encore activé dans votre thème publié.',
        disabled: 'Le widget est désactivé dans votre thème publié «\u00a0{theme}\u00a0».',
      },
    },
    automate: {
      title: '3. Automatisez-le',
      intro:
        'Les commandes payées, les remboursements, les annulations, les inscriptions et les visites sont déjà comptés : les règles de gain de chaque programme, dans son éditeur, indiquent ce qui l’alimente. Shopify Flow sert pour tout le reste : les actions envoient d’autres activités, les déclencheurs lancent des flux de travail.',
      actions: 'Actions Flow (envoyer de l’activité)',
      triggers: 'Déclencheurs Flow (réagir à la progression)',
      recipeOther: {
        title: 'Recette : compter autre chose, comme un premier avis',
        // Mission and Activity ID are the action's own field names, which Flow shows in English like the action.
        steps: [
          'Dans l’éditeur de votre mission, ajoutez une tâche avec «\u00a0Autre chose\u00a0» comme activité et l’ID d’activité first_review.',
          'Dans Shopify Flow, créez un flux de travail avec le déclencheur que vous voulez compter, comme «\u00a0Review created\u00a0» de votre application d’avis.',
          'Ajoutez l’action «\u00a0Execute mission\u00a0» (Loyalty). Client : le client du déclencheur. Mission : {mission}. Activity ID : first_review.',
          'Activez le flux de travail. Un flux de travail qui envoie des commandes a besoin de la clé d’idempotence order:{{order.legacyResourceId}}, pour qu’une commande déjà comptée par l’application ne compte pas deux fois.',
        ],
      },
      recipeTag: {
        title: 'Recette : palier atteint → ajouter une balise au client',
        steps: [
          'Créez un flux de travail avec le déclencheur «\u00a0Streak milestone reached\u00a0» (Loyalty).',
          'Ajoutez l’action «\u00a0Ajouter des balises de client\u00a0».',
          'Balises : loyalty-{{milestone_name}}, ou une balise fixe comme loyalty-regular.',
          'Activez le flux de travail. Utilisez la balise dans des segments, des campagnes par e-mail ou des réductions.',
        ],
      },
      yourMission: 'le nom de votre mission (créez d’abord la mission de bienvenue)',
    },
    preview: {
      title: '4. Voyez-le comme un client',
      intro: 'Le vrai widget avec vos programmes en ligne, tel que le voit un visiteur et tel que le voit un membre connecté.',
      guest: 'Aperçu en tant que visiteur',
      member: 'Aperçu en tant que membre',
      memberNote: 'L’aperçu membre connecte un membre d’aperçu («\u00a0{externalId}\u00a0») qui n’a encore aucune progression.',
      needsIds: 'Créez le bouton, le thème et les textes du widget (étape 2) pour le prévisualiser.',
      frameTitle: 'Aperçu du widget',
      more: 'Plus d’options sur la page Widget',
    },
  },
};
