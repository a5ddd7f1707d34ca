import busboy from 'busboy';
import { type ErrorDetail, invalidInput, payloadTooLarge } from '../errors.js';

/** CONTRACT §6 / spec Limits: an image is at most 100 KB. */
export const MAX_UPLOAD_BYTES = 100 * 1024;
/** Room for the multipart boundaries and part headers around the file. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;
/** The largest multipart body an upload may send. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES;

export const fileError = (code: string, message: string): ErrorDetail => ({ field: 'file', code, message });

interface FilePart {
  name: string;
  filename: string | undefined;
  data: Buffer;
}

/** Splits a multipart body into its file parts and the names of its other fields. */
function readMultipart(raw: Buffer, contentTypeHeader: string): Promise<{ files: FilePart[]; fields: string[] }> {
  return new Promise((resolve, reject) => {
    const malformed = () =>
      invalidInput('The multipart body could not be parsed.', [fileError('invalid_multipart', 'Malformed multipart/form-data body.')]);
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
  if (fields.includes('file'))
    details.push(fileError('invalid_type', 'The part "file" must be a file (with a filename), not a text field.'));
  else if (named.length === 0) details.push(fileError('required', 'Send the image as the multipart part "file".'));
  else if (named.length > 1) details.push(fileError('too_many', 'Only one part named "file" is accepted.'));
  if (details.length) throw invalidInput('The body must have exactly one part, a file named "file".', details);
  const file = named[0]!;
  if (file.data.length > MAX_UPLOAD_BYTES)
    throw payloadTooLarge(`The file exceeds ${MAX_UPLOAD_BYTES} bytes.`, [fileError('too_large', `At most ${MAX_UPLOAD_BYTES} bytes.`)]);
  if (file.data.length === 0) throw invalidInput('The file is empty.', [fileError('empty', 'The file has no content.')]);
  return file;
}

// Control characters are dropped: the name is kept for operators only and PostgreSQL refuses NUL.
const storedFilename = (name: string | undefined) => name?.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 256) || null;

/** The one file of an upload's multipart body, and its name as stored; 400/413 as the contract asks otherwise. */
export async function readUpload(raw: Buffer, contentTypeHeader: string): Promise<{ data: Buffer; filename: string | null }> {
  const { files, fields } = await readMultipart(raw, contentTypeHeader);
  const file = theFile(files, fields);
  return { data: file.data, filename: storedFilename(file.filename) };
}
