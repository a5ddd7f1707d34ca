// As Shopify CLI generates it: the target's API is the global `shopify` inside the target's module,
// here either target's, since the block and the modal run the same module.
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/PosRewards.tsx' {
  const shopify:
    | import('@shopify/ui-extensions/pos.customer-details.block.render').Api
    | import('@shopify/ui-extensions/pos.customer-details.action.render').Api;
  const globalThis: { shopify: typeof shopify };
}
