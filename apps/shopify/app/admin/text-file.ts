/**
 * An uploaded file's text: UTF-8 unless it is UTF-16 (what spreadsheets save as "Unicode text"),
 * told by its byte order mark, or without one by the zero bytes ASCII codes leave beside each letter.
 */
export function textOf(bytes: Uint8Array): string {
  const [a, b, c, d] = bytes;
  const encoding =
    (a === 0xff && b === 0xfe) || (a !== 0 && b === 0 && c !== 0 && d === 0)
      ? 'utf-16le'
      : (a === 0xfe && b === 0xff) || (a === 0 && b !== 0 && c === 0 && d !== 0)
        ? 'utf-16be'
        : 'utf-8';
  return new TextDecoder(encoding).decode(bytes);
}
