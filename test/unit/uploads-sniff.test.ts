import { sniffImageType } from '../../src/modules/uploads/uploads.sniff';

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(
    values.map((value) => (typeof value === 'number' ? Buffer.from([value]) : Buffer.from(value, 'latin1'))),
  );

describe('sniffImageType', () => {
  it.each([
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 'JFIF'), { ext: 'jpg', contentType: 'image/jpeg' }],
    ['JPEG without JFIF', bytes(0xff, 0xd8, 0xff, 0xdb), { ext: 'jpg', contentType: 'image/jpeg' }],
    [
      'PNG',
      bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR'),
      { ext: 'png', contentType: 'image/png' },
    ],
    ['GIF87a', bytes('GIF87a', 1, 0, 1, 0), { ext: 'gif', contentType: 'image/gif' }],
    ['GIF89a', bytes('GIF89a', 1, 0, 1, 0), { ext: 'gif', contentType: 'image/gif' }],
    ['WebP', bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 '), { ext: 'webp', contentType: 'image/webp' }],
  ])('recognises %s by its first bytes', (_name, content, expected) => {
    expect(sniffImageType(content)).toEqual(expected);
  });

  it.each([
    ['empty content', bytes()],
    ['a script', bytes('<script>alert(1)</script>')],
    ['SVG (may carry scripts)', bytes('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['HTML', bytes('<!doctype html><html></html>')],
    ['PDF', bytes('%PDF-1.7\n')],
    ['a RIFF file that is not WebP (WAV)', bytes('RIFF', 0x24, 0, 0, 0, 'WAVEfmt ')],
    ['a truncated PNG signature', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a)],
    ['a truncated JPEG signature', bytes(0xff, 0xd8)],
    ['RIFF too short to say WEBP', bytes('RIFF', 0, 0, 0, 0, 'WEB')],
    ['GIF with an unknown version', bytes('GIF90a', 1, 0)],
    ['the signature not at the start', bytes(' ', 0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a)],
  ])('refuses %s', (_name, content) => {
    expect(sniffImageType(content)).toBeUndefined();
  });

  it('reads a plain Uint8Array as well as a Buffer', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xee]))).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
  });
});
