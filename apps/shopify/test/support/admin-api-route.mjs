// Preloaded (`node --import`) into the production server a test starts: the library's runtime seam
// for outgoing requests sends the shop's Admin endpoints (*.myshopify.io / .com) to the local stub
// at SHOPIFY_ADMIN_STUB_ORIGIN; everything else is fetched as is. Plain JavaScript, because the
// server runs the build as shipped, without a TypeScript loader.
//
// The library's web-api adapter installs its fetch when first evaluated; evaluating it here first
// means the build's own import finds it done and this routing stays in place.
import '@shopify/shopify-api/adapters/web-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';

const stub = process.env.SHOPIFY_ADMIN_STUB_ORIGIN;
if (!stub) throw new Error('admin-api-route: SHOPIFY_ADMIN_STUB_ORIGIN is not set');

setAbstractFetchFunc(async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  if (/\.myshopify\.(io|com)$/.test(url.hostname)) return fetch(`${stub}${url.pathname}${url.search}`, init);
  return fetch(input, init);
});
