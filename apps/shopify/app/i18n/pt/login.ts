import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'Domínio da loja',
  missing: 'Insira o domínio da sua loja.',
  invalid: 'Insira um domínio de loja válido, por exemplo, minha-loja.myshopify.com.',
  submit: 'Fazer login',
};
