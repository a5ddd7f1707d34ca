import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: '商店域名',
  missing: '请输入您的商店域名。',
  invalid: '请输入有效的商店域名，例如 my-shop.myshopify.com。',
  submit: '登录',
};
