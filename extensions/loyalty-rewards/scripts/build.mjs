// The Rewards page's bundle, dist/rewards.js, within Shopify's limit for a full-page customer account
// extension (scripts/build-ui-extension.mjs).
import * as esbuild from 'esbuild';
import { buildExtension, FULL_PAGE_LIMIT_BYTES } from '../../../scripts/build-ui-extension.mjs';

await buildExtension(esbuild, new URL('..', import.meta.url), 'src/Rewards.tsx', 'rewards.js', FULL_PAGE_LIMIT_BYTES);
