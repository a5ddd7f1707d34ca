/** The log-in page, for opening the app outside the Shopify admin. */
export const login = {
  shop: 'Shop domain',
  missing: 'Enter your shop domain.',
  invalid: 'Enter a valid shop domain, e.g. my-shop.myshopify.com.',
  submit: 'Log in',
};
