export function gzipBest(bytes: Uint8Array): Promise<Buffer>;
export function brotliBest(bytes: Uint8Array): Buffer;
