import { deflateSync, crc32 } from 'node:zlib';
import { isWholeImage } from '../../src/modules/uploads/uploads.structure';

const bytes = (...values: (number | string | Buffer)[]) =>
  Buffer.concat(
    values.map((value) =>
      Buffer.isBuffer(value) ? value : typeof value === 'number' ? Buffer.from([value]) : Buffer.from(value, 'latin1'),
    ),
  );

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const IHDR = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const png = (...extra: Buffer[]) =>
  bytes(
    0x89,
    'PNG\r\n\x1a\n',
    chunk('IHDR', IHDR),
    ...extra,
    chunk('IDAT', deflateSync(Buffer.from([0, 0, 0, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  );

/** A 1x1 GIF89a: screen, a 2-colour table, an image of one LZW block, the trailer. */
const gifBody = (...extensions: Buffer[]) =>
  bytes(
    'GIF89a',
    1,
    0,
    1,
    0,
    0x80,
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255,
    ...extensions,
    0x2c,
    0,
    0,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    2,
    2,
    0x4c,
    0x01,
    0,
  );
const gif = (...extensions: Buffer[]) => bytes(gifBody(...extensions), 0x3b);
const comment = (text: string) => bytes(0x21, 0xfe, text.length, text, 0);

const jpeg = (...segments: Buffer[]) =>
  bytes(0xff, 0xd8, ...segments, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0, 0x3f, 0xff, 0x00, 0x12, 0xff, 0xd9);
const jpegComment = (text: string) => bytes(0xff, 0xfe, 0, text.length + 2, text);

function webp(payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + payload.length, 0);
  return bytes('RIFF', size, 'WEBP', payload);
}
const vp8l = bytes('VP8L', 5, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0);

describe('isWholeImage', () => {
  it.each([
    ['a PNG', png(), 'png'],
    ['a PNG with a plain text chunk', png(chunk('tEXt', Buffer.from('Comment\0Sunset over the bay'))), 'png'],
    ['a GIF', gif(), 'gif'],
    ['a GIF with a comment', gif(comment('made with care')), 'gif'],
    ['a JPEG', jpeg(), 'jpg'],
    ['a JPEG with a comment', jpeg(jpegComment('2 < 3, Hotel')), 'jpg'],
    ['a WebP', webp(vp8l), 'webp'],
  ] as const)('accepts %s', (_name, content, ext) => {
    expect(isWholeImage(content, ext)).toBe(true);
  });

  it.each([
    ['a GIF followed by a page', bytes(gif(), '<html><script>alert(1)</script></html>'), 'gif'],
    ['a GIF with a script in its comment', gif(comment('<script>alert(1)</script>')), 'gif'],
    ['a GIF without its trailer', gifBody(), 'gif'],
    ['GIF89a then script', bytes('GIF89a/*\x00\x00*/=1;alert(document.domain)//<script>alert(1)</script>'), 'gif'],
    ['a PNG followed by a page', bytes(png(), '<html></html>'), 'png'],
    ['a PNG signature then HTML', bytes(0x89, 'PNG\r\n\x1a\n<html><script>alert(1)</script></html>'), 'png'],
    ['a PNG whose text chunk is a page', png(chunk('tEXt', Buffer.from('c\0<!doctype html><p>hi'))), 'png'],
    ['a PNG with a chunk of a wrong CRC', bytes(png().subarray(0, 29), 0, png().subarray(30)), 'png'],
    ['a JPEG followed by a page', bytes(jpeg(), '<html></html>'), 'jpg'],
    ['a JPEG whose comment is a script', jpeg(jpegComment('<script src=//x>')), 'jpg'],
    ['a truncated JPEG', jpeg().subarray(0, 12), 'jpg'],
    ['a WebP followed by a page', bytes(webp(vp8l), '<html>'), 'webp'],
    [
      'a WebP whose size is not its own',
      bytes(webp(vp8l).subarray(0, 4), 0x40, 0, 0, 0, webp(vp8l).subarray(8)),
      'webp',
    ],
  ] as const)('refuses %s', (_name, content, ext) => {
    expect(isWholeImage(content, ext)).toBe(false);
  });
});
