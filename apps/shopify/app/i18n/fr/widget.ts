import type { Messages } from '../messages';

export const widget: Messages['widget'] = {
  title: 'Widget',
  new: 'Nouveau',
  preview: 'Aperçu en direct',
  previewHelp:
    'La boutique affiche le plus ancien widget flottant, thème et modèle de textes en ligne (signalés «\u00a0Sur votre boutique\u00a0») : l’application les transmet d’elle-même à l’intégration d’application «\u00a0Loyalty widget\u00a0». Prévisualisez-les ici.',
  onStore: 'Sur votre boutique',
  show: 'Afficher l’aperçu',
  incomplete: 'Créez un widget flottant, un thème et un modèle de textes pour prévisualiser le widget.',
  frameTitle: 'Aperçu du widget',
  frameNote: 'Aperçu de la boutique (vue visiteur)',
  page: 'Une page de fidélité',
  pageHelp:
    'Présentez tout votre programme sur une page de votre boutique, comme une page «\u00a0Récompenses\u00a0» : les façons de gagner des points, les récompenses à échanger et les niveaux, ainsi que, pour un client connecté, ses points et un bouton Échanger. Nécessite l’activation de l’intégration d’application «\u00a0Loyalty widget\u00a0».',
  addPage: 'Ajouter à une page dans l’éditeur de thème',
  product: 'Les points sur les pages produit et panier',
  productHelp:
    'Sous le prix d’un produit, ce que rapporte son achat (« Gagnez 39 points avec cet achat »), pour la variante et la quantité choisies ; sur la page panier, ce que rapporte la commande, remises et points par commande compris. Les deux comptent le multiplicateur de niveau d’un client connecté et un événement de points bonus en cours, s’affichent tant que les points sont activés et que les commandes en rapportent, ne demandent pas l’intégration d’app et ne promettent rien aux clients que vous excluez par tag.',
  addProduct: 'Ajouter aux pages produit dans l’éditeur de thème',
  addCart: 'Ajouter à la page panier dans l’éditeur de thème',
  reminder: 'Un rappel à côté du bouton',
  reminderHelp:
    'Une fois par visite, quelques secondes après l’ouverture d’une page, le widget rappelle à un visiteur ce que lui rapporte la création d’un compte, et à un membre la récompense que ses points couvrent déjà ou combien il lui en manque pour la plus proche ; un clic ouvre ses points. Le rappel est actif, sauf si vous décochez «\u00a0Rappeler leurs points aux clients\u00a0» dans l’intégration d’application «\u00a0Loyalty widget\u00a0».',
  reminderSettings: 'Ouvrir l’intégration d’application dans l’éditeur de thème',
};
