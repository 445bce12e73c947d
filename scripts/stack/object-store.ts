import { mkdir } from 'node:fs/promises';
import S3rver from 's3rver';

export interface RunningObjectStore {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
}

/** An S3-protocol server on the local disk (s3rver), with the media bucket created. */
export async function startObjectStore(options: {
  directory: string;
  port: number;
  bucket: string;
}): Promise<RunningObjectStore> {
  await mkdir(options.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    bucket: options.bucket,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    stop: () => server.close(),
  };
}
