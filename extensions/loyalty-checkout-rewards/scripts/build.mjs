// The block's bundle, dist/checkout-rewards.js, within Shopify's limit (scripts/build-ui-extension.mjs).
import * as esbuild from 'esbuild';
import { buildExtension } from '../../../scripts/build-ui-extension.mjs';

await buildExtension(esbuild, new URL('..', import.meta.url), 'src/CheckoutRewards.tsx', 'checkout-rewards.js');
