import type { ModuleFixtures } from '../../platform/fixtures';

/** A valid 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** An uploaded room photo: its record is its URL. */
export const uploadsFixtures: ModuleFixtures = {
  records: { upload: { fields: ['photos', 'resolution_photos', 'photo_url'] } },
  async seed({ request, canary }) {
    const { url } = await request<{ url: string }>('/api/upload', {
      query: { folder: 'rooms' },
      file: { name: `${canary}.png`, contentType: 'image/png', content: PNG },
    });
    return { upload: url };
  },
};
