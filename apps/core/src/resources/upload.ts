import busboy from 'busboy';
import createDOMPurify, { type WindowLike } from 'dompurify';
import { fileTypeFromBuffer } from 'file-type';
import { JSDOM } from 'jsdom';
import { z } from 'zod';
import type { Config } from '../config.js';
import { type ErrorDetail, invalidInput, payloadTooLarge } from '../errors.js';
import { field } from '../records/fields.js';
import { defineResource, type Row } from '../records/resource.js';

/** CONTRACT §6 / spec Limits: an image is at most 100 KB. */
export const MAX_UPLOAD_BYTES = 100 * 1024;
/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

const SVG_NS = 'http://www.w3.org/2000/svg';
/** Raster types recognised by their magic bytes, and the type each is stored and served as. */
const RASTER_TYPES: Record<string, string> = {
  'image/png': 'image/png',
  'image/apng': 'image/png',
  'image/jpeg': 'image/jpeg',
  'image/gif': 'image/gif',
};

const fileError = (code: string, message: string): ErrorDetail => ({ field: 'file', code, message });
const notAnImage = () =>
  invalidInput('The file is not a PNG, JPEG, GIF or SVG image.', [fileError('unsupported_type', 'Expected a PNG, JPEG, GIF or SVG image (checked by content).')]);

interface FilePart {
  name: string;
  filename: string | undefined;
  data: Buffer;
}

/** Splits a multipart body into its file parts and the names of its other fields. */
function readMultipart(raw: Buffer, contentTypeHeader: string): Promise<{ files: FilePart[]; fields: string[] }> {
  return new Promise((resolve, reject) => {
    const malformed = () => invalidInput('The multipart body could not be parsed.', [fileError('invalid_multipart', 'Malformed multipart/form-data body.')]);
    let parser: busboy.Busboy;
    try {
      // One byte over the limit is kept, so that "too large" is told apart from "exactly the limit".
      parser = busboy({ headers: { 'content-type': contentTypeHeader }, limits: { fileSize: MAX_UPLOAD_BYTES + 1 } });
    } catch {
      reject(malformed());
      return;
    }
    const files: FilePart[] = [];
    const fields: string[] = [];
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      const part: FilePart = { name, filename: info.filename, data: Buffer.alloc(0) };
      files.push(part);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        part.data = Buffer.concat(chunks);
      });
      // A truncated form also fails the part's stream; unheard, that error would be uncaught.
      stream.on('error', () => reject(malformed()));
    });
    parser.on('field', (name) => fields.push(name));
    parser.on('error', () => reject(malformed()));
    parser.on('close', () => resolve({ files, fields }));
    parser.end(raw);
  });
}

/** The `file` part, or the 400/413 the contract asks for. */
function theFile(files: FilePart[], fields: string[]): FilePart {
  const details: ErrorDetail[] = [...fields, ...files.map((f) => f.name)]
    .filter((n) => n !== 'file')
    .map((n) => ({ field: n, code: 'unknown_field', message: `Unknown part "${n}"; only "file" is accepted.` }));
  const named = files.filter((f) => f.name === 'file');
  if (fields.includes('file')) details.push(fileError('invalid_type', 'The part "file" must be a file (with a filename), not a text field.'));
  else if (named.length === 0) details.push(fileError('required', 'Send the image as the multipart part "file".'));
  else if (named.length > 1) details.push(fileError('too_many', 'Only one part named "file" is accepted.'));
  if (details.length) throw invalidInput('The body must have exactly one part, a file named "file".', details);
  const file = named[0]!;
  if (file.data.length > MAX_UPLOAD_BYTES) throw payloadTooLarge(`The file exceeds ${MAX_UPLOAD_BYTES} bytes.`, [fileError('too_large', `At most ${MAX_UPLOAD_BYTES} bytes.`)]);
  if (file.data.length === 0) throw invalidInput('The file is empty.', [fileError('empty', 'The file has no content.')]);
  return file;
}

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
  const purify = createDOMPurify(window as unknown as WindowLike);
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
    purify.sanitize(root, {
      IN_PLACE: true,
      USE_PROFILES: { svg: true, svgFilters: true },
      ADD_TAGS: ['use'],
      FORBID_TAGS: ['script', 'foreignObject'],
    });
    // Only the root element is kept: processing instructions (xml-stylesheet) and the doctype go.
    return serializer.serializeToString(root);
  };
}

let sanitizeSvg: ((svg: string) => string | undefined) | undefined;

/** The stored bytes and type of an accepted image; the content decides, never the declared name or type. */
export async function inspectImage(data: Buffer): Promise<{ contentType: string; bytes: Buffer }> {
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

// Control characters are dropped: the name is kept for operators only and PostgreSQL refuses NUL.
const storedFilename = (name: string | undefined) => name?.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 256) || null;

export function createUpload(config: Config) {
  const urlOf = (row: Row) => `${config.publicUrl}/files/${row.account_id as string}/${row.id as string}`;
  return defineResource({
    slug: 'upload',
    table: 'upload',
    description:
      'Images for eudIcon fields: multipart/form-data with one part "file" (PNG, JPEG, GIF or SVG, <= 100 KB, type checked by content, SVG sanitised). Served without auth at `url`.',
    access: { create: ['apikey'], get: ['apikey'], delete: ['apikey'] },
    fields: {
      url: field.virtual(z.url(), { description: 'Where the file is served, without auth.' }),
      contentType: field.enum(['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml'], { readOnly: true }),
      size: field.integer({ readOnly: true, description: 'Stored bytes (after SVG sanitising).' }),
    },
    async load({ rows, wanted }) {
      if (wanted.has('url')) for (const row of rows) row.url = urlOf(row);
    },
    createRaw: {
      accepts: ['multipart/form-data'],
      maxBytes: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES,
      async run({ db, ctx, raw, contentTypeHeader }) {
        const { files, fields } = await readMultipart(raw, contentTypeHeader);
        const file = theFile(files, fields);
        const { contentType, bytes } = await inspectImage(file.data);
        const [row] = (await db('upload')
          .insert({ account_id: ctx.account!.id, content_type: contentType, size: bytes.length, filename: storedFilename(file.filename), data: bytes })
          .returning(['id', 'account_id', 'content_type', 'size', 'created_at', 'updated_at'])) as Row[];
        return {
          id: row!.id,
          url: urlOf(row!),
          contentType,
          size: bytes.length,
          createdAt: (row!.created_at as Date).toISOString(),
          updatedAt: (row!.updated_at as Date).toISOString(),
        };
      },
    },
  });
}
