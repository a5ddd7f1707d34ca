import '@shopify/ui-extensions/preact';
import { pageLanguage } from '@loyalty/view-model';
import { render } from 'preact';
import { APP_URL } from './app-url.js';
import { OrderBlock } from './block.js';
import { loadOrder } from './load.js';

// Shopify runs the module's default export with the target's API as the global `shopify`: the
// thank-you page's has the order confirmation, the order status page's the order.
export default async () => {
  const lang = pageLanguage(shopify.localization.language.value.isoCode);
  const orderId = 'orderConfirmation' in shopify ? shopify.orderConfirmation.value.order.id : shopify.order.value?.id;
  const storefrontUrl = shopify.shop.storefrontUrl?.replace(/\/$/, '');
  // Shopify's /account signs a shopper in or up, in new and classic customer accounts alike.
  const accountUrl = storefrontUrl && `${storefrontUrl}/account`;
  if (!orderId) return;
  render(
    <OrderBlock
      load={() => loadOrder(APP_URL, () => shopify.sessionToken.get(), orderId, lang)}
      lang={lang}
      accountUrl={accountUrl}
      storefrontUrl={storefrontUrl}
    />,
    document.body,
  );
};
