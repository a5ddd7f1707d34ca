import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'Shop-Domain',
  missing: 'Geben Sie Ihre Shop-Domain ein.',
  invalid: 'Geben Sie eine gültige Shop-Domain ein, z. B. my-shop.myshopify.com.',
  submit: 'Anmelden',
};
