import { CsvError, parse } from 'csv-parse/sync';
import express, { type Request, type Response } from 'express';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../platform/errors';
import { pickupGuestSchema } from './blocks.schemas';
import { MAX_PICKUP_GUESTS, type PickupGuest } from './blocks.types';

/** A rooming list is at most this large (200 guests of long names fit several times over). */
export const MAX_ROOMING_LIST_BYTES = 64 * 1024;
/** A line longer than this is no guest's. */
const MAX_LINE_CHARS = 4000;

export const roomingMessages = {
  notCsv: 'Список гостей отправляется как text/csv',
  tooLarge: `Список гостей больше ${MAX_ROOMING_LIST_BYTES / 1024} КБ`,
  unreadable: 'Список гостей не читается как текст UTF-8',
  empty: 'В списке гостей нет ни одной строки после заголовка',
  tooMany: `В списке гостей больше ${MAX_PICKUP_GUESTS} строк`,
  line: (line: number, problem: string) => `Строка ${line} списка гостей: ${problem}`,
};

const readText = express.text({ type: 'text/csv', limit: MAX_ROOMING_LIST_BYTES });

/** The `text/csv` body, read here (the platform parses JSON only): 415 for another type, 413 past the bound. */
export async function readRoomingList(req: Request, res: Response): Promise<string> {
  if (!req.is('text/csv')) throw new UnsupportedMediaTypeError(roomingMessages.notCsv);
  try {
    await new Promise<void>((resolve, reject) =>
      readText(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())),
    );
  } catch (error) {
    res.setHeader('Connection', 'close');
    if ((error as { type?: string }).type === 'entity.too.large')
      throw new PayloadTooLargeError(roomingMessages.tooLarge);
    throw new ValidationError(roomingMessages.unreadable);
  }
  return typeof req.body === 'string' ? req.body : '';
}

const lineError = (line: number, problem: string, field?: string) => {
  const message = roomingMessages.line(line, problem);
  return new ValidationError(message, [
    { path: ['body', `line ${line}`, ...(field ? [field] : [])].join('.'), message },
  ]);
};

/**
 * The guests of a rooming list: a header line naming the columns (those of a pickup's guest: `category_id`,
 * `check_in`, `check_out`, `guest_last_name`, `guest_first_name`, optionally `room_id`, `guest_middle_name`,
 * `guest_phone`, `guest_email`, `guests_count`, `notes`), then one guest a line. An empty cell is an absent value. A
 * line that cannot be read, or a guest that is not valid, is a 400 naming its line; nothing is booked.
 */
export function guestsOfRoomingList(text: string): PickupGuest[] {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parse(text, {
      columns: true,
      info: true,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      max_record_size: MAX_LINE_CHARS,
    });
  } catch (error) {
    if (error instanceof CsvError) throw lineError((error as CsvError & { lines?: number }).lines ?? 1, error.message);
    throw error;
  }
  if (rows.length === 0) throw new ValidationError(roomingMessages.empty);
  // The body's bound keeps the parse small; the guests are bounded as in a JSON pickup.
  if (rows.length > MAX_PICKUP_GUESTS) throw new ValidationError(roomingMessages.tooMany);
  return rows.map(({ record, info }) => {
    const given = Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ''));
    const { value, error } = pickupGuestSchema.validate(given, { abortEarly: true, convert: true });
    if (error) throw lineError(info.lines, error.details[0].message, error.details[0].path.join('.'));
    return value as PickupGuest;
  });
}
