import type { Messages } from '../messages';

export const login: Messages['login'] = {
  shop: '스토어 도메인',
  missing: '스토어 도메인을 입력하십시오.',
  invalid: '유효한 스토어 도메인을 입력하십시오(예: my-shop.myshopify.com).',
  submit: '로그인',
};
