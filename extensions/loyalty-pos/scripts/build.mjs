// The extension's bundle, dist/pos-rewards.js (the block and the modal run this one module), within
// Shopify's limit (scripts/build-ui-extension.mjs).
import * as esbuild from 'esbuild';
import { buildExtension } from '../../../scripts/build-ui-extension.mjs';

await buildExtension(esbuild, new URL('..', import.meta.url), 'src/PosRewards.tsx', 'pos-rewards.js');
