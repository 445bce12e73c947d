import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { UploadsConfig } from './uploads.env';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import {
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../platform/errors';
import type { AccessTokenPayload } from '../../platform/http/access-token';
import { ALL_STAFF } from '../../platform/http/roles';
import type { Storage } from '../../platform/storage';
import { uploadsRepository } from './uploads.repository';
import { IMAGE_TYPES, sniffImageType, type ImageExtension } from './uploads.sniff';
import { isWholeImage } from './uploads.structure';

export const UPLOAD_FOLDERS = ['categories', 'rooms', 'hotels', 'guests', 'tasks', 'chat'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];
export const DEFAULT_UPLOAD_FOLDER: UploadFolder = 'rooms';

function formatSize(bytes: number): string {
  const units: [number, string][] = [
    [1024 * 1024, 'МБ'],
    [1024, 'КБ'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} байт`;
}

export const uploadMessages = {
  noHotel: 'Загружать и удалять файлы могут только сотрудники отеля',
  unsupportedType: 'Неподдерживаемый формат файла: загрузите изображение JPEG, PNG, GIF или WebP',
  tooLarge: (maxBytes: number) => `Файл слишком большой: допустимо не более ${formatSize(maxBytes)}`,
  notMultipart: 'Ожидается тело multipart/form-data с файлом в поле file',
  malformed: 'Некорректное тело multipart/form-data',
  noFile: 'Файл не передан: ожидается непустой файл в поле file',
  oneFile: 'Ожидается ровно один файл, в поле file',
  badUrl: 'Некорректная ссылка на файл',
  notFound: 'Файл не найден',
};

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^(?:${UPLOAD_FOLDERS.join('|')})/${UUID}\\.(?:${Object.keys(IMAGE_TYPES).join('|')})$`);

/**
 * The storage key of a URL this service handed out (`{cdnUrl}/<folder>/<uuid>.<ext>`), or undefined for anything
 * else: another host, an unknown folder or extension, a name that is not a UUID, and every spelling a URL parser
 * would decode or normalise into something else (`..`, percent-escapes such as `%2e`, backslashes, white space,
 * double slashes, a query or a fragment).
 */
export function keyFromPublicUrl(raw: string, cdnUrl: string): string | undefined {
  if (/\.\.|%|\\|[?#]|\s/.test(raw)) return undefined;
  const prefix = `${cdnUrl}/`;
  if (!raw.startsWith(prefix)) return undefined;
  const key = raw.slice(prefix.length);
  if (!KEY.test(key)) return undefined;
  // The parsed URL must say the same thing: same origin, same path, nothing normalised away.
  const url = URL.parse(raw);
  const base = URL.parse(cdnUrl);
  if (!url || !base || url.origin !== base.origin) return undefined;
  if (url.pathname !== `${base.pathname.replace(/\/$/, '')}/${key}`) return undefined;
  return key;
}

export interface UploadedFile {
  url: string;
  key: string;
  folder: UploadFolder;
  content_type: string;
  size: number;
}

export const foreignMediaMessage = 'Фотографии должны быть загружены этим отелем через /api/upload';

export function createUploadsService(db: Db, config: UploadsConfig, storage: Storage) {
  const tooLarge = () => new PayloadTooLargeError(uploadMessages.tooLarge(config.uploadMaxBytes));

  return {
    /**
     * Photos attached to records must be files this hotel uploaded: no hot-linking of arbitrary URLs, and no
     * borrowing another hotel's files.
     */
    async assertOwnUploads(hotelId: string, urls: readonly string[] | undefined, field: string, conn: DbOrTrx = db) {
      if (!urls || urls.length === 0) return;
      const keys = urls.map((url) => keyFromPublicUrl(url, config.cdnUrl));
      const owned = await uploadsRepository.ownedKeys(
        conn,
        hotelId,
        keys.filter((key): key is string => key !== undefined),
      );
      const foreign = keys.findIndex((key) => key === undefined || !owned.has(key));
      if (foreign >= 0) {
        throw new ValidationError(foreignMediaMessage, [
          { path: `body.${field}.${foreign}`, message: foreignMediaMessage },
        ]);
      }
    },

    /** The largest file accepted, in bytes. */
    maxBytes: config.uploadMaxBytes,

    /** Files belong to a hotel: any member of a hotel's staff may upload and delete; super_admin has no hotel (403). */
    hotelOf(actor: AccessTokenPayload): string {
      if (!actor.hotelId || !ALL_STAFF.includes(actor.role))
        throw new ForbiddenError(uploadMessages.noHotel, 'no_hotel');
      return actor.hotelId;
    },

    /** The refusal of a file over `maxBytes` (413). */
    tooLarge,

    /** Stores an image under a fresh name; its type is decided by its content alone. */
    async upload(hotelId: string, userId: string, folder: UploadFolder, content: Buffer): Promise<UploadedFile> {
      if (content.length > config.uploadMaxBytes) throw tooLarge();
      const type = sniffImageType(content);
      // The whole file must be that image and nothing more: a polyglot (a GIF followed by a page) is refused.
      if (!type || !isWholeImage(content, type.ext))
        throw new UnsupportedMediaTypeError(uploadMessages.unsupportedType);
      const key = `${folder}/${randomUUID()}.${type.ext}`;
      await storage.put(key, content, type.contentType);
      try {
        await uploadsRepository.insert(db, hotelId, {
          key,
          folder,
          content_type: type.contentType,
          size_bytes: content.length,
          uploaded_by: userId,
        });
      } catch (error) {
        // Best effort: an object nobody owns could never be deleted through the API.
        await storage.remove(key).catch(() => undefined);
        throw error;
      }
      return { url: `${config.cdnUrl}/${key}`, key, folder, content_type: type.contentType, size: content.length };
    },

    /**
     * A stored file to serve at `{cdn_url}`: its bytes and the type its name says (the type it was sniffed as when it
     * was stored); 404 for any other name.
     */
    async open(folder: UploadFolder, name: string): Promise<{ body: Readable; contentType: string }> {
      const ext = name.slice(name.lastIndexOf('.') + 1) as ImageExtension;
      const body = IMAGE_TYPES[ext] && (await storage.read(`${folder}/${name}`));
      if (!body) throw new NotFoundError(uploadMessages.notFound);
      return { body, contentType: IMAGE_TYPES[ext] };
    },

    /**
     * Deletes one of the hotel's files. Another hotel's file answers like a missing one (404) and stays. The row
     * goes only once the object is gone, so a failed removal can be retried.
     */
    async remove(hotelId: string, url: string): Promise<void> {
      const key = keyFromPublicUrl(url, config.cdnUrl);
      if (!key)
        throw new ValidationError(uploadMessages.badUrl, [{ path: 'query.url', message: uploadMessages.badUrl }]);
      await db.transaction(async (trx) => {
        if (!(await uploadsRepository.deleteByKey(trx, hotelId, key))) throw new NotFoundError(uploadMessages.notFound);
        await storage.remove(key);
      });
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
