import type { DbOrTrx } from '../../platform/db/knex';

export interface Upload {
  id: string;
  hotel_id: string;
  key: string;
  folder: string;
  content_type: string;
  size_bytes: number;
  uploaded_by: string | null;
  created_at: Date;
}

export type NewUpload = Pick<Upload, 'key' | 'folder' | 'content_type' | 'size_bytes' | 'uploaded_by'>;

/** Which hotel owns which stored object; every query is scoped to a hotel. */
export const uploadsRepository = {
  async insert(db: DbOrTrx, hotelId: string, upload: NewUpload): Promise<Upload> {
    const [row] = await db('uploads')
      .insert({ ...upload, hotel_id: hotelId })
      .returning('*');
    return row as Upload;
  },

  /** Deletes the hotel's row for `key`; false when the hotel owns no such file. */
  async deleteByKey(db: DbOrTrx, hotelId: string, key: string): Promise<boolean> {
    return (await db('uploads').where({ hotel_id: hotelId, key }).delete()) > 0;
  },

  /** The subset of `keys` this hotel owns. */
  async ownedKeys(db: DbOrTrx, hotelId: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows: { key: string }[] = await db('uploads').where({ hotel_id: hotelId }).whereIn('key', keys).select('key');
    return new Set(rows.map((row) => row.key));
  },
};
