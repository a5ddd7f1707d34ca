import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'Dominio de la tienda',
  missing: 'Introduce el dominio de tu tienda.',
  invalid: 'Introduce un dominio de tienda válido, p. ej., my-shop.myshopify.com.',
  submit: 'Iniciar sesión',
};
