import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: 'ストアのドメイン',
  missing: 'ストアのドメインを入力してください。',
  invalid: '有効なストアのドメインを入力してください（例：my-shop.myshopify.com）。',
  submit: 'ログイン',
};
