import createDOMPurify from 'dompurify';
import { fileTypeFromBuffer } from 'file-type';
import { JSDOM } from 'jsdom';
import { invalidInput } from '../errors.js';
import { fileError } from './multipart.js';

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

/** True when CSS (a style sheet, a style attribute or any presentation attribute) could load something. */
function loadsExternal(css: string): boolean {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // Escapes could spell any of the below in disguise; icons have no need for them.
  if (/\\|@import|\b(?:image|image-set|cross-fade|element|expression)\s*\(/i.test(text)) return true;
  return [...text.matchAll(/url\s*\(\s*['"]?/gi)].some((m) => text[m.index + m[0].length] !== '#');
}

/*
 * jsdom's XML parser slows down with nesting (quadratically) and overflows its stack a few
 * thousand levels down; these bounds keep any 100 KB file to a fraction of a second. Real icons
 * stay far below them.
 */
const MAX_SVG_DEPTH = 256;
const MAX_SVG_ELEMENTS = 4000;

/** Element count and nesting depth of XML text by one linear scan, before any parser sees it. */
function xmlShape(xml: string): { depth: number; elements: number } {
  let depth = 0;
  let maxDepth = 0;
  let elements = 0;
  const after = (from: number, marker: string) => {
    const at = xml.indexOf(marker, from);
    return at === -1 ? xml.length : at + marker.length;
  };
  for (let i = xml.indexOf('<'); i !== -1 && i < xml.length; i = xml.indexOf('<', i)) {
    if (xml.startsWith('<!--', i)) i = after(i + 4, '-->');
    else if (xml.startsWith('<![CDATA[', i)) i = after(i + 9, ']]>');
    else if (xml[i + 1] === '?' || xml[i + 1] === '!') i = after(i + 2, '>');
    else if (xml[i + 1] === '/') {
      depth -= 1;
      i = after(i + 2, '>');
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
      i = j + 1;
    }
  }
  return { depth: maxDepth, elements };
}

/** One jsdom window and DOMPurify instance for the process; sanitising is synchronous. */
function createSvgSanitizer(): (svg: string) => string | undefined {
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
    // DOMPurify drops CDATA sections, and with them many editors' style sheets: keep them as text.
    const cdata = doc.createTreeWalker(root, window.NodeFilter.SHOW_CDATA_SECTION);
    const sections: Node[] = [];
    while (cdata.nextNode()) sections.push(cdata.currentNode);
    for (const node of sections) node.parentNode?.replaceChild(doc.createTextNode(node.nodeValue ?? ''), node);
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
    // Only the root element is kept: processing instructions (xml-stylesheet) and the doctype go.
    return serializer.serializeToString(root);
  };
}

let sanitizeSvg: ((svg: string) => string | undefined) | undefined;

/** The stored bytes and type of an accepted image; the content decides, never the declared name or type. */
export async function inspectImage(data: Buffer): Promise<{ contentType: ImageType; bytes: Buffer }> {
  const detected = await fileTypeFromBuffer(data);
  const raster = detected && RASTER_TYPES[detected.mime];
  if (raster) return { contentType: raster, bytes: data };
  if (detected && detected.ext !== 'xml') throw notAnImage();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw notAnImage();
  }
  const shape = xmlShape(text);
  if (shape.depth > MAX_SVG_DEPTH || shape.elements > MAX_SVG_ELEMENTS) {
    throw invalidInput('The SVG is too complex.', [
      fileError('too_complex', `An SVG may nest at most ${MAX_SVG_DEPTH} levels and hold at most ${MAX_SVG_ELEMENTS} elements.`),
    ]);
  }
  sanitizeSvg ??= createSvgSanitizer();
  const clean = sanitizeSvg(text);
  if (clean === undefined) throw notAnImage();
  return { contentType: 'image/svg+xml', bytes: Buffer.from(clean, 'utf8') };
}
