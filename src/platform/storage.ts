import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { SharedSettings } from './config';

/** The object store (S3 protocol: MinIO or S3 in production, s3rver in dev and tests), one bucket. */
export interface Storage {
  /**
   * Stores `body` under `key`; objects are immutable once written (keys are never reused), cached by anyone for a year
   * unless `cacheControl` says otherwise (a document only the API serves: `private, no-store`).
   */
  put(key: string, body: Buffer, contentType: string, options?: { cacheControl?: string }): Promise<void>;
  /** Removes the object; removing a missing object succeeds (idempotent). */
  remove(key: string): Promise<void>;
  /** The object's bytes as a stream; undefined when there is no such object. */
  read(key: string): Promise<Readable | undefined>;
}

/** `http://host:port` -> the minio client's connection options; an endpoint with a path is refused. */
function connectionOf(endpoint: string): { endPoint: string; port?: number; useSSL: boolean } {
  const url = new URL(endpoint);
  if (url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(`S3_ENDPOINT must be a bare origin such as http://host:9000, got ${endpoint}`);
  }
  return {
    endPoint: url.hostname,
    ...(url.port && { port: Number(url.port) }),
    useSSL: url.protocol === 'https:',
  };
}

export function createStorage(config: SharedSettings['storage']): Storage {
  const client = new Client({
    ...connectionOf(config.endpoint),
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // A configured region spares the client its bucket-location look-up.
    region: config.region,
    pathStyle: true,
  });
  return {
    async put(key, body, contentType, options) {
      await client.putObject(config.bucket, key, body, body.length, {
        'Content-Type': contentType,
        'Cache-Control': options?.cacheControl ?? 'public, max-age=31536000, immutable',
      });
    },
    async remove(key) {
      await client.removeObject(config.bucket, key);
    },
    async read(key) {
      try {
        return await client.getObject(config.bucket, key);
      } catch (error) {
        if ((error as { code?: string }).code === 'NoSuchKey') return undefined;
        throw error;
      }
    },
  };
}
