import '@shopify/ui-extensions/preact';
import { pageLanguage } from '@loyalty/view-model';
import { render } from 'preact';
import { APP_URL } from './app-url.js';
import { type Checkout, CheckoutRewards, type Signal } from './block.js';
import { loadMember } from './load.js';

// Without protected customer data access the checkout gives no buyer identity: no one to show rewards to.
const NO_BUYER: Signal<undefined> = { value: undefined, subscribe: () => () => undefined };

// Shopify runs the module's default export with the target's API as the global `shopify`.
export default async () => {
  const lang = pageLanguage(shopify.localization.language.value.isoCode);
  const checkout: Checkout = {
    discountCodes: shopify.discountCodes,
    instructions: shopify.instructions,
    checkoutToken: shopify.checkoutToken,
    customer: shopify.buyerIdentity?.customer ?? NO_BUYER,
    applyDiscountCodeChange: (change) => shopify.applyDiscountCodeChange(change),
  };
  render(
    <CheckoutRewards load={() => loadMember(APP_URL, () => shopify.sessionToken.get(), lang)} checkout={checkout} lang={lang} />,
    document.body,
  );
};
