import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'Domaine de la boutique',
  missing: 'Saisissez le domaine de votre boutique.',
  invalid: 'Saisissez un domaine de boutique valide, p. ex. ma-boutique.myshopify.com.',
  submit: 'Se connecter',
};
