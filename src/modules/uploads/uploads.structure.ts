import { crc32 } from 'node:zlib';
import type { ImageExtension } from './uploads.sniff';

/**
 * Whether `content` is one whole image of the format its first bytes claim, and nothing else: its blocks, chunks or
 * segments follow one another to the format's end marker with no byte after it, and no text it carries (a GIF or JPEG
 * comment, a PNG text chunk) holds markup. A polyglot (a GIF followed by a page, a PNG whose text is a script) is
 * refused, so nothing but an image is ever stored under an image's type. The pixels themselves are not decoded.
 */
export function isWholeImage(content: Buffer, ext: ImageExtension): boolean {
  try {
    return WALKERS[ext](content);
  } catch (error) {
    // A read past the end (Node's ERR_OUT_OF_RANGE, known by its code: its class may be another realm's): truncated.
    if (error instanceof RangeError || (error as { code?: unknown } | null)?.code === 'ERR_OUT_OF_RANGE') return false;
    throw error;
  }
}

/** Markup a browser or an interpreter would act on, in an image's text. */
const MARKUP = /<\s*(?:[!?]|\/?\s*(?:script|html|body|head|iframe|svg|object|embed|meta|img|a|style|link|form)\b)/i;
const holdsMarkup = (text: Buffer) => MARKUP.test(text.toString('latin1'));

const WALKERS: Record<ImageExtension, (content: Buffer) => boolean> = { png, gif, jpg, webp };

/** PNG: IHDR first, chunks with their CRCs, IEND last and at the very end; text chunks free of markup. */
function png(content: Buffer): boolean {
  let offset = 8;
  let first = true;
  for (;;) {
    const length = content.readUInt32BE(offset);
    const type = content.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > content.length) return false;
    const data = content.subarray(offset + 8, offset + 8 + length);
    if (crc32(content.subarray(offset + 4, offset + 8 + length)) !== content.readUInt32BE(offset + 8 + length))
      return false;
    if (first !== (type === 'IHDR')) return false;
    if (['tEXt', 'zTXt', 'iTXt'].includes(type) && holdsMarkup(data)) return false;
    first = false;
    offset = end;
    if (type === 'IEND') return offset === content.length;
  }
}

/** GIF: screen descriptor, colour table, then extensions and images block by block up to the trailer, which ends it. */
function gif(content: Buffer): boolean {
  const flags = content.readUInt8(10);
  let offset = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  /** Data sub-blocks from `at`: the offset after their terminator, and their bytes. */
  const subBlocks = (at: number): { next: number; data: Buffer } => {
    const parts: Buffer[] = [];
    let cursor = at;
    for (let size = content.readUInt8(cursor); size !== 0; size = content.readUInt8(cursor)) {
      if (cursor + 1 + size > content.length) throw new RangeError('truncated sub-block');
      parts.push(content.subarray(cursor + 1, cursor + 1 + size));
      cursor += 1 + size;
    }
    return { next: cursor + 1, data: Buffer.concat(parts) };
  };
  for (;;) {
    const introducer = content.readUInt8(offset);
    if (introducer === 0x3b) return offset + 1 === content.length;
    if (introducer === 0x21) {
      const label = content.readUInt8(offset + 1);
      const { next, data } = subBlocks(offset + 2);
      if (holdsMarkup(data) && (label === 0xfe || label === 0x01 || label === 0xff)) return false;
      offset = next;
    } else if (introducer === 0x2c) {
      const local = content.readUInt8(offset + 9);
      const table = local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0;
      offset = subBlocks(offset + 10 + table + 1).next;
    } else return false;
  }
}

/** JPEG: marker segments, entropy-coded scans, EOI at the very end; comments free of markup. */
function jpg(content: Buffer): boolean {
  let offset = 2;
  for (;;) {
    if (content.readUInt8(offset) !== 0xff) return false;
    const marker = content.readUInt8(offset + 1);
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return offset + 2 === content.length;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = content.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > content.length) return false;
    if (marker === 0xfe && holdsMarkup(content.subarray(offset + 4, offset + 2 + length))) return false;
    offset += 2 + length;
    if (marker === 0xda) {
      // The scan's coded bytes run to the next marker that is neither a stuffed 0xFF00 nor a restart.
      while (!(content.readUInt8(offset) === 0xff && isSegmentMarker(content.readUInt8(offset + 1)))) offset += 1;
    }
  }
}

const isSegmentMarker = (byte: number) => byte !== 0x00 && byte !== 0xff && !(byte >= 0xd0 && byte <= 0xd7);

/** WebP: the RIFF size is the file's, and its chunks (each padded to even) fill it exactly. */
function webp(content: Buffer): boolean {
  if (content.readUInt32LE(4) + 8 !== content.length) return false;
  let offset = 12;
  while (offset < content.length) {
    const size = content.readUInt32LE(offset + 4);
    offset += 8 + size + (size % 2);
    if (offset > content.length) return false;
  }
  return offset === content.length && content.length > 12;
}
