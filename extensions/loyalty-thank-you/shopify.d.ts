// As Shopify CLI generates it: the target's API is the global `shopify` inside the target's module,
// here either page's, since both targets run the same module.
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/OrderRewards.tsx' {
  const shopify:
    | import('@shopify/ui-extensions/purchase.thank-you.block.render').Api
    | import('@shopify/ui-extensions/customer-account.order-status.block.render').Api;
  const globalThis: { shopify: typeof shopify };
}
