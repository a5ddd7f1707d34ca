import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'Shop-Domain',
  missing: 'Gib deine Shop-Domain ein.',
  invalid: 'Gib eine gültige Shop-Domain ein, z. B. my-shop.myshopify.com.',
  submit: 'Anmelden',
};
