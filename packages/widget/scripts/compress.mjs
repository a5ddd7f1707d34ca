// The copies of the widget's files the core serves, each at its format's best: what every shopper
// downloads, made once per build. Shared by the build and bench:widget, so both send alike.
import { gzipAsync } from '@gfx/zopfli';
import { brotliCompressSync, constants } from 'node:zlib';

/**
 * Gzip by zopfli: any gzip reader takes it, and it is about 3 % smaller than zlib's level 9 (the
 * app 20,077 B against 20,715 B, a language's words 1,636 B against 1,693 B on 2026-12-05).
 */
export async function gzipBest(bytes) {
  return Buffer.from(await gzipAsync(bytes, { numiterations: 15 }));
}

/** Brotli at its best, for text: what browsers asking for `br` (every one over https) are sent. */
export function brotliBest(bytes) {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}
