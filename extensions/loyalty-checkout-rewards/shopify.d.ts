// As Shopify CLI generates it: the target's API is the global `shopify` inside the target's module.
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/CheckoutRewards.tsx' {
  const shopify: import('@shopify/ui-extensions/purchase.checkout.reductions.render-after').Api;
  const globalThis: { shopify: typeof shopify };
}
