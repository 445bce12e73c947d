/** The image types an upload may be, by the extension its stored name gets. */
export const IMAGE_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;

export type ImageExtension = keyof typeof IMAGE_TYPES;

export interface SniffedType {
  ext: ImageExtension;
  contentType: (typeof IMAGE_TYPES)[ImageExtension];
}

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** Every part's bytes must appear at its offset. */
const SIGNATURES: { ext: ImageExtension; parts: { offset: number; bytes: number[] }[] }[] = [
  { ext: 'jpg', parts: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }] },
  { ext: 'png', parts: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }] },
  { ext: 'gif', parts: [{ offset: 0, bytes: ascii('GIF87a') }] },
  { ext: 'gif', parts: [{ offset: 0, bytes: ascii('GIF89a') }] },
  {
    ext: 'webp',
    parts: [
      { offset: 0, bytes: ascii('RIFF') },
      { offset: 8, bytes: ascii('WEBP') },
    ],
  },
];

/**
 * The image type of `content`, decided by its first bytes only (a file name or a declared Content-Type proves
 * nothing); undefined for anything that is not a JPEG, PNG, GIF or WebP image.
 */
export function sniffImageType(content: Uint8Array): SniffedType | undefined {
  const match = SIGNATURES.find(({ parts }) =>
    parts.every(({ offset, bytes }) => bytes.every((byte, index) => content[offset + index] === byte)),
  );
  return match && { ext: match.ext, contentType: IMAGE_TYPES[match.ext] };
}
