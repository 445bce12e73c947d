import type { Request, Response } from 'express';
import Joi from 'joi';
import { cursorMessage, type Cursor, type Page } from '../db/keyset';

/** Items per page of a list: what a page holds unless `limit` says otherwise, and the most it may ask for. */
export const PAGE_SIZE = { default: 100, max: 500 } as const;

const MAX_CURSOR_LENGTH = 2000;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string): Cursor | undefined {
  try {
    const values: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    const valid =
      Array.isArray(values) &&
      values.length > 0 &&
      values.every((value) => typeof value === 'string' && !value.includes('\u0000'));
    return valid ? (values as string[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The query parameters of every paginated list, beside its filters: the validated `cursor` is the decoded position
 * (the service passes `{ limit, cursor }` on to its repository's `pageOf`).
 */
export const pageQueryKeys = {
  limit: Joi.number()
    .integer()
    .min(1)
    .max(PAGE_SIZE.max)
    .default(PAGE_SIZE.default)
    .description(`Items per page (default ${PAGE_SIZE.default}, at most ${PAGE_SIZE.max})`),
  cursor: Joi.string()
    .max(MAX_CURSOR_LENGTH)
    .pattern(/^[A-Za-z0-9_-]+$/, 'base64url')
    .custom((text: string, helpers) => decodeCursor(text) ?? helpers.error('cursor.invalid'))
    .messages({ 'cursor.invalid': cursorMessage })
    .description(
      'Where the page starts: the `X-Next-Cursor` of the previous page (opaque). The first page without it; the ' +
        'filters must stay the same from page to page.',
    ),
};

/** The headers of a page's answer, documented on each paginated list's 200. */
export const PAGE_HEADERS = {
  Link: 'When more items follow: `<URL of the next page>; rel="next"` (RFC 8288), the same request with `cursor` set',
  'X-Next-Cursor': 'When more items follow: the `cursor` of the next page; absent on the last page',
};

/** A Host header of a name or address and port only; anything else makes the next page's link relative. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function nextPageUrl(req: Request, cursor: string): string {
  const url = new URL(req.originalUrl, 'http://placeholder');
  url.searchParams.set('cursor', cursor);
  const relative = `${url.pathname}${url.search}`;
  const host = req.get('host');
  return host && PLAIN_HOST.test(host) ? `${req.protocol}://${host}${relative}` : relative;
}

/** Answers a page: its items as the body (an array, as without pagination) and, when more follow, where they start. */
export function sendPage<T>(res: Response, page: Page<T>): void {
  if (page.next) {
    const cursor = encodeCursor(page.next);
    res.set('X-Next-Cursor', cursor);
    res.set('Link', `<${nextPageUrl(res.req, cursor)}>; rel="next"`);
  }
  res.json(page.items);
}
