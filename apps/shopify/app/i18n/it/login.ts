import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'Dominio del negozio',
  missing: 'Inserisci il dominio del tuo negozio.',
  invalid: 'Inserisci un dominio valido, ad esempio my-shop.myshopify.com.',
  submit: 'Accedi',
};
