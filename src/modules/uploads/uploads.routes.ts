import { pipeline } from 'node:stream/promises';
import { readSingleFile } from '../../platform/http/multipart';
import { defineRoute, type RouteDefinition } from '../../platform/http/route';
import { deleteUploadQuery, fileParams, okSchema, uploadedFileSchema, uploadQuery } from './uploads.schemas';
import { IMAGE_TYPES } from './uploads.sniff';
import { uploadMessages, type UploadFolder, type UploadsService } from './uploads.service';

const FILE_FIELD = 'file';
/** Photo reads per address a minute, per API process (a page of a hotel's widget shows dozens). */
const FILE_READS_PER_MINUTE = 3000;

export function uploadsRoutes(uploads: UploadsService): RouteDefinition[] {
  const tags = ['Uploads'];
  return [
    defineRoute<unknown, { folder: UploadFolder }>({
      method: 'post',
      path: '/api/upload',
      summary: 'Upload a photo',
      // Mount never reads a streamed body, so there is nothing to compare a retry with; a duplicate is an unlinked file.
      idempotency: { none: 'a streamed body mount cannot compare; a duplicate upload is an unreferenced file' },
      description:
        'A `multipart/form-data` body with exactly one file in the field `file`. The type is decided by the ' +
        'content alone (JPEG, PNG, GIF or WebP; the file name and the declared Content-Type are ignored), and the ' +
        'whole file must be that image: bytes after its end, a broken chunk or markup in its text are a 415. The file ' +
        'is stored as `<folder>/<uuid>.<ext>` under a new random name and served at `{cdn_url}/<folder>/<uuid>.<ext>`. ' +
        `Files are capped at UPLOAD_MAX_BYTES (default 10 МБ). Any member of a hotel's staff may upload; the file ` +
        "belongs to the caller's hotel; super_admin, who belongs to no hotel, is refused (403).",
      tags,
      access: { kind: 'authenticated' },
      request: {
        query: uploadQuery,
        multipart: { field: FILE_FIELD, description: 'The image: JPEG, PNG, GIF or WebP' },
      },
      responses: {
        201: { description: 'Stored', schema: uploadedFileSchema },
        400: { description: 'Not multipart, no file, more than one file, or an unknown folder' },
        403: { description: uploadMessages.noHotel },
        413: { description: 'The file is larger than UPLOAD_MAX_BYTES; nothing is stored' },
        415: { description: 'The content is not a JPEG, PNG, GIF or WebP image; nothing is stored' },
      },
      async handler({ auth, query, req, res }) {
        const hotelId = uploads.hotelOf(auth!);
        const content = await readSingleFile(req, res, {
          field: FILE_FIELD,
          maxBytes: uploads.maxBytes,
          tooLarge: uploads.tooLarge,
          messages: uploadMessages,
        });
        res.status(201).json(await uploads.upload(hotelId, auth!.sub, query.folder, content));
      },
    }),
    defineRoute<unknown, unknown, { folder: UploadFolder; name: string }>({
      method: 'get',
      path: '/api/files/:folder/:name',
      summary: 'An uploaded file',
      description:
        'The default `{cdn_url}` (`CDN_URL` unset): a stored image with the type it was sniffed as, ' +
        '`X-Content-Type-Options: nosniff`, a sandboxing `Content-Security-Policy` (it is never a page, whatever its ' +
        'bytes), `Cross-Origin-Resource-Policy: cross-origin` (hotel sites show the photos) and a year of caching ' +
        '(names are never reused). Public, like the photos it serves.',
      tags,
      access: { kind: 'public' },
      rateLimit: {
        scope: 'uploads.read',
        perAddress: { quota: FILE_READS_PER_MINUTE, windowSeconds: 60 },
        store: 'local',
      },
      request: { params: fileParams },
      responses: {
        200: { description: 'The image', media: Object.values(IMAGE_TYPES) },
        404: { description: uploadMessages.notFound },
        429: { description: 'Too many requests from this address (`Retry-After`)' },
      },
      async handler({ params, res }) {
        const file = await uploads.open(params.folder, params.name);
        res.set({
          'Content-Type': file.contentType,
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; sandbox",
          'Cross-Origin-Resource-Policy': 'cross-origin',
          'Cache-Control': 'public, max-age=31536000, immutable',
        });
        await pipeline(file.body, res);
      },
    }),
    defineRoute<unknown, { url: string }>({
      method: 'delete',
      path: '/api/upload',
      summary: 'Delete an uploaded file',
      description:
        '`url` must be exactly an address this service answered an upload with: `{cdn_url}/<folder>/<uuid>.<ext>`. ' +
        'Anything else is refused (400): another host, a name that is not a UUID, `..`, percent-escapes, ' +
        "backslashes, double slashes, a query or a fragment. Only the caller's hotel's files can be deleted; " +
        "another hotel's file answers 404 like a missing one and is left as it is.",
      tags,
      access: { kind: 'authenticated' },
      request: { query: deleteUploadQuery },
      responses: {
        200: { description: 'Deleted', schema: okSchema },
        400: { description: `${uploadMessages.badUrl} (or none given)` },
        403: { description: uploadMessages.noHotel },
        404: { description: uploadMessages.notFound },
      },
      async handler({ auth, query, res }) {
        await uploads.remove(uploads.hotelOf(auth!), query.url);
        res.json({ ok: true });
      },
    }),
  ];
}
