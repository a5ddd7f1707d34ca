import { z } from 'zod';
import type { Config } from '../config.js';
import { field } from '../records/fields.js';
import { defineResource } from '../records/resource.js';
import type { RecordColumns, RowOfFields } from '../records/row-types.js';
import { IMAGE_TYPES, inspectImage } from '../uploads/images.js';
import { MAX_UPLOAD_BODY_BYTES, readUpload } from '../uploads/multipart.js';

const uploadFields = {
  url: field.virtual(z.url(), { description: 'Where the file is served, without auth.' }),
  contentType: field.enum(IMAGE_TYPES, { readOnly: true, alwaysSet: true }),
  size: field.integer({ readOnly: true, alwaysSet: true, description: 'Stored bytes (after SVG sanitising).' }),
};

/** An upload's row: its fields, the file name it was sent with and the bytes served. */
export type UploadRow = RowOfFields<typeof uploadFields> & { filename: string | null; data: Buffer };

export function createUpload(config: Config) {
  const urlOf = (row: Pick<RecordColumns, 'account_id' | 'id'>) => `${config.publicUrl}/files/${row.account_id}/${row.id}`;
  return defineResource({
    slug: 'upload',
    table: 'upload',
    description:
      'Images for eudIcon fields: multipart/form-data with one part "file" (PNG, JPEG, GIF or SVG, <= 100 KB, type checked by content, SVG sanitised). Served without auth at `url`.',
    access: { create: ['apikey'], get: ['apikey'], delete: ['apikey'] },
    fields: uploadFields,
    async load({ rows, wanted }) {
      if (wanted.has('url')) for (const row of rows) row.url = urlOf(row);
    },
    createRaw: {
      accepts: ['multipart/form-data'],
      maxBytes: MAX_UPLOAD_BODY_BYTES,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'application/octet-stream',
            description: 'The image: PNG, JPEG, GIF or SVG, <= 100 KB, with a filename.',
          },
        },
        required: ['file'],
      },
      async run({ db, ctx, raw, contentTypeHeader }) {
        const file = await readUpload(raw, contentTypeHeader);
        const { contentType, bytes } = await inspectImage(file.data);
        const [row] = await db<UploadRow>('upload')
          .insert({ account_id: ctx.account!.id, content_type: contentType, size: bytes.length, filename: file.filename, data: bytes })
          .returning(['id', 'account_id', 'content_type', 'size', 'created_at', 'updated_at']);
        return {
          id: row!.id,
          url: urlOf(row!),
          contentType,
          size: bytes.length,
          createdAt: row!.created_at.toISOString(),
          updatedAt: row!.updated_at.toISOString(),
        };
      },
    },
  });
}
