// The Rewards page's bundle, dist/rewards.js, within Shopify's limit (scripts/build-ui-extension.mjs).
import * as esbuild from 'esbuild';
import { buildExtension } from '../../../scripts/build-ui-extension.mjs';

await buildExtension(esbuild, new URL('..', import.meta.url), 'src/Rewards.tsx', 'rewards.js');
