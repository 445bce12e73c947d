import { ValidationError } from '../errors';

export const foreignMediaMessage = 'Фотографии должны быть загружены через /api/upload';

/** Photos must be files this service stores (`{cdn_url}/...`): no hot-linking of arbitrary URLs into the product. */
export function assertOwnMedia(cdnUrl: string, urls: readonly string[] | undefined, field: string): void {
  if (urls?.some((url) => !url.startsWith(`${cdnUrl}/`))) {
    throw new ValidationError(foreignMediaMessage, [{ path: `body.${field}`, message: foreignMediaMessage }]);
  }
}
