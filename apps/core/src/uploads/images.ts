import { fileTypeFromBuffer } from 'file-type';
import { invalidInput, payloadTooLarge } from '../errors.js';
import { fileError, MAX_UPLOAD_BYTES } from './multipart.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
/** The types an upload is stored and served as. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];
/** Raster types recognised by their magic bytes, and the type each is stored and served as. */
const RASTER_TYPES: Record<string, ImageType> = {
  'image/png': 'image/png',
  'image/apng': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/gif': 'image/gif',
};

const notAnImage = () =>
  invalidInput('The file is not a PNG, JPEG, GIF or SVG image.', [
    fileError('unsupported_type', 'Expected a PNG, JPEG, GIF or SVG image (checked by content).'),
  ]);

const unsafeSvg = () =>
  invalidInput('The SVG cannot be made safe to show.', [
    fileError('unsafe_svg', 'Its text holds markup that a browser could read as elements; export the image again from an editor.'),
  ]);

/** CSS without its comments, in one pass (a lazy pattern rescans the rest of the text from each unclosed `/*`). */
function withoutCssComments(css: string): string {
  let out = '';
  let from = 0;
  for (let at = css.indexOf('/*'); at !== -1; at = css.indexOf('/*', from)) {
    out += css.slice(from, at);
    const close = css.indexOf('*/', at + 2);
    if (close === -1) return out;
    from = close + 2;
  }
  return out + css.slice(from);
}

/** True when CSS (a style sheet, a style attribute or any presentation attribute) could load something. */
function loadsExternal(css: string): boolean {
  const text = withoutCssComments(css);
  // Escapes could spell any of the below in disguise; icons have no need for them.
  if (/\\|@import|\b(?:image|image-set|cross-fade|element|expression)\s*\(/i.test(text)) return true;
  return [...text.matchAll(/url\s*\(\s*['"]?/gi)].some((m) => text[m.index + m[0].length] !== '#');
}

/*
 * jsdom's XML parser slows down with nesting (quadratically) and overflows its stack a few
 * thousand levels down, and DOMPurify's pass over jsdom grows faster than the nodes it removes:
 * these bounds, with comments and processing instructions left out before any parser sees the
 * text, keep any 100 KB file to a fraction of a second. Real icons stay far below them.
 */
const MAX_SVG_DEPTH = 256;
const MAX_SVG_ELEMENTS = 4000;

const escapeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * XML text as the parser is to see it, with its element count and nesting depth, by one linear
 * scan: comments and processing instructions (`<?xml-stylesheet?>` among them) left out, as the
 * sanitised image has none, CDATA sections as the escaped text they hold (DOMPurify would drop
 * them, and with them many editors' style sheets), a doctype kept whole, internal subset and all.
 */
function prepareXml(xml: string): { text: string; depth: number; elements: number } {
  let depth = 0;
  let maxDepth = 0;
  let elements = 0;
  let out = '';
  let from = 0;
  const endOf = (at: number, marker: string) => {
    const found = xml.indexOf(marker, at);
    return found === -1 ? xml.length : found + marker.length;
  };
  for (let i = xml.indexOf('<'); i !== -1 && i < xml.length; i = xml.indexOf('<', i)) {
    out += xml.slice(from, i);
    if (xml.startsWith('<!--', i)) i = endOf(i + 4, '-->');
    else if (xml.startsWith('<?', i)) i = endOf(i + 2, '?>');
    else if (xml.startsWith('<![CDATA[', i)) {
      const close = xml.indexOf(']]>', i + 9);
      out += escapeText(xml.slice(i + 9, close === -1 ? xml.length : close));
      i = close === -1 ? xml.length : close + 3;
    } else if (xml[i + 1] === '!') {
      // A declaration: its internal subset, in brackets, may hold '>'.
      const bracket = xml.indexOf('[', i);
      const close = xml.indexOf('>', i);
      const end = bracket !== -1 && (close === -1 || bracket < close) ? endOf(endOf(bracket, ']'), '>') : endOf(i, '>');
      out += xml.slice(i, end);
      i = end;
    } else if (xml[i + 1] === '/') {
      depth -= 1;
      const end = endOf(i + 2, '>');
      out += xml.slice(i, end);
      i = end;
    } else {
      // An opening tag: find its end, skipping quoted attribute values that may hold '>'.
      let j = i + 1;
      let quote = '';
      for (; j < xml.length; j++) {
        const c = xml[j];
        if (quote) {
          if (c === quote) quote = '';
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '>') break;
      }
      elements += 1;
      if (xml[j - 1] !== '/') maxDepth = Math.max(maxDepth, (depth += 1));
      out += xml.slice(i, j + 1);
      i = j + 1;
    }
    from = i;
  }
  return { text: out + xml.slice(from), depth: maxDepth, elements };
}

/**
 * One jsdom window and DOMPurify instance for the process; sanitising is synchronous. jsdom is
 * loaded with the first SVG, not at start: it was a quarter of the service's start-up time.
 */
async function createSvgSanitizer(): Promise<(svg: string) => string | undefined> {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const isLink = name === 'href' || name.endsWith(':href');
    // Links may only point inside the document; nothing may be fetched from elsewhere.
    if (name.startsWith('on') || (isLink && !data.attrValue.trim().startsWith('#')) || loadsExternal(data.attrValue)) {
      data.keepAttr = false;
    }
  });
  purify.addHook('afterSanitizeElements', (node) => {
    if (node.nodeName.toLowerCase() === 'style' && loadsExternal(node.textContent ?? '')) node.textContent = '';
  });
  const serializer = new window.XMLSerializer();
  return (svg) => {
    const doc = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
    const root = doc.documentElement;
    // A parse failure yields a <parsererror> root; anything else than <svg> is not an SVG image.
    if (!root || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) return undefined;
    try {
      purify.sanitize(root, {
        IN_PLACE: true,
        USE_PROFILES: { svg: true, svgFilters: true },
        ADD_TAGS: ['use'],
        FORBID_TAGS: ['script', 'foreignObject'],
      });
    } catch (err) {
      // DOMPurify refuses (a TypeError) when the root itself must go: markup hidden in its text
      // (a CDATA section kept as text beside a comment reads as mutation XSS). Nothing of it is kept.
      if (err instanceof TypeError) throw unsafeSvg();
      throw err;
    }
    // A style sheet is its text children alone, as the CSS parser reads it: an element DOMPurify
    // kept inside (a <title>) would have split a word ("@im<title/>port") past the check above.
    for (const style of root.getElementsByTagNameNS(SVG_NS, 'style')) {
      for (const child of [...style.childNodes]) if (child.nodeType !== window.Node.TEXT_NODE) child.remove();
      if (loadsExternal(style.textContent ?? '')) style.textContent = '';
    }
    // Only the root element is kept: the doctype goes.
    return serializer.serializeToString(root);
  };
}

let sanitizeSvg: Promise<(svg: string) => string | undefined> | undefined;

/**
 * The widest side of an image a storefront is asked to decode: a 100 KB PNG may unpack to
 * 10000×10000 pixels, 400 MB in a shopper's phone. Icons and banners are far smaller.
 */
const MAX_SIDE = 4096;

/** Width and height from a raster image's header; undefined when its header cannot be read (a truncated or mislabelled file). */
function rasterSize(type: ImageType, data: Buffer): { width: number; height: number } | undefined {
  if (type === 'image/png') {
    // The signature, then IHDR first: its length, name, width and height.
    if (data.length < 24 || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (type === 'image/gif') {
    if (data.length < 10) return undefined;
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  // JPEG: segments from after SOI to the frame header (SOF0–SOF15 but DHT, JPG and DAC), which holds the size.
  for (let i = 2; i + 9 < data.length;) {
    if (data[i] !== 0xff) return undefined;
    const marker = data[i + 1]!;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { width: data.readUInt16BE(i + 7), height: data.readUInt16BE(i + 5) };
    // The scan starts, or the image ends, before any frame header: not an image one can show.
    if (marker === 0xda || marker === 0xd9) return undefined;
    i += marker >= 0xd0 && marker <= 0xd8 ? 2 : 2 + data.readUInt16BE(i + 2);
  }
  return undefined;
}

/** The stored bytes and type of an accepted image; the content decides, never the declared name or type. */
export async function inspectImage(data: Buffer): Promise<{ contentType: ImageType; bytes: Buffer }> {
  const detected = await fileTypeFromBuffer(data);
  const raster = detected && RASTER_TYPES[detected.mime];
  if (raster) {
    const size = rasterSize(raster, data);
    if (!size) throw notAnImage();
    if (size.width > MAX_SIDE || size.height > MAX_SIDE)
      throw invalidInput('The image is too large to show.', [
        fileError('too_large', `At most ${MAX_SIDE}×${MAX_SIDE} pixels; this one is ${size.width}×${size.height}.`),
      ]);
    return { contentType: raster, bytes: data };
  }
  if (detected && detected.ext !== 'xml') throw notAnImage();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw notAnImage();
  }
  const shape = prepareXml(text);
  if (shape.depth > MAX_SVG_DEPTH || shape.elements > MAX_SVG_ELEMENTS) {
    throw invalidInput('The SVG is too complex.', [
      fileError('too_complex', `An SVG may nest at most ${MAX_SVG_DEPTH} levels and hold at most ${MAX_SVG_ELEMENTS} elements.`),
    ]);
  }
  sanitizeSvg ??= createSvgSanitizer();
  const clean = (await sanitizeSvg)(shape.text);
  if (clean === undefined) throw notAnImage();
  const bytes = Buffer.from(clean, 'utf8');
  // What is stored and served is bounded as what was sent (serialising escapes may grow it).
  if (bytes.length > MAX_UPLOAD_BYTES)
    throw payloadTooLarge(`The SVG made safe exceeds ${MAX_UPLOAD_BYTES} bytes.`, [
      fileError('too_large', `At most ${MAX_UPLOAD_BYTES} bytes once made safe (its text escaped).`),
    ]);
  return { contentType: 'image/svg+xml', bytes };
}
