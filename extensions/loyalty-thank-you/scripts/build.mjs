// The block's bundle, dist/order-rewards.js (both targets run this one module), within Shopify's
// limit (scripts/build-ui-extension.mjs).
import * as esbuild from 'esbuild';
import { buildExtension } from '../../../scripts/build-ui-extension.mjs';

await buildExtension(esbuild, new URL('..', import.meta.url), 'src/OrderRewards.tsx', 'order-rewards.js');
