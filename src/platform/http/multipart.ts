import busboy from 'busboy';
import type { Request, Response } from 'express';
import { type AppError, ValidationError } from '../errors';

/** The refusals a multipart route words for its own field. */
export interface MultipartMessages {
  notMultipart: string;
  malformed: string;
  noFile: string;
  oneFile: string;
}

/**
 * Streams a `multipart/form-data` request and returns the one non-empty file sent in `field`, refusing (400) any
 * other shape. Past `maxBytes` it stops at once with `tooLarge()` and keeps nothing; the rest of the body is
 * discarded and the connection closed after the answer.
 */
export function readSingleFile(
  req: Request,
  res: Response,
  options: { field: string; maxBytes: number; tooLarge: () => AppError; messages: MultipartMessages },
): Promise<Buffer> {
  if (!req.is('multipart/form-data')) return Promise.reject(new ValidationError(options.messages.notMultipart));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // One byte over the limit is what tells a file of exactly `maxBytes` from a longer one.
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: options.maxBytes + 1, fields: 20, fieldSize: 1024, parts: 21 },
      });
    } catch {
      reject(new ValidationError(options.messages.malformed));
      return;
    }
    let settled = false;
    let chunks: Buffer[] | undefined;
    const fail = (error: AppError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume();
      res.setHeader('Connection', 'close');
      reject(error);
    };
    parser.on('file', (name, stream) => {
      stream.on('error', () => fail(new ValidationError(options.messages.malformed)));
      if (name !== options.field || chunks) {
        stream.resume();
        fail(new ValidationError(options.messages.oneFile));
        return;
      }
      const received: Buffer[] = (chunks = []);
      stream.on('data', (chunk: Buffer) => received.push(chunk));
      stream.on('limit', () => {
        stream.resume();
        fail(options.tooLarge());
      });
    });
    parser.on('filesLimit', () => fail(new ValidationError(options.messages.oneFile)));
    parser.on('partsLimit', () => fail(new ValidationError(options.messages.malformed)));
    parser.on('error', () => fail(new ValidationError(options.messages.malformed)));
    // 'finish' comes once the whole form is parsed and every file stream has ended.
    parser.on('finish', () => {
      if (settled) return;
      const content = chunks && Buffer.concat(chunks);
      if (!content || content.length === 0) {
        fail(new ValidationError(options.messages.noFile));
        return;
      }
      settled = true;
      resolve(content);
    });
    req.on('error', () => fail(new ValidationError(options.messages.malformed)));
    req.pipe(parser);
  });
}
