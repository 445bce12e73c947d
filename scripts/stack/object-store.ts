import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'minio';

export interface RunningObjectStore {
  endpoint: string;
  bucket: string;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
}

/** Built by `ensure_versitygw` in scripts/lib.sh. */
const DEFAULT_BINARY = path.resolve(__dirname, '../../.tools/bin/versitygw');

/**
 * versitygw (a maintained S3 server) on a local directory, with its own root credentials and the media bucket
 * created. Nothing is granted to anonymous callers, reading included: the API serves the files at `{cdn_url}`
 * (with nosniff), so only the service reads, lists, writes or deletes, with its credentials. Metadata (content types, the bucket policy) goes to sidecar files rather than
 * extended attributes, so any filesystem will do.
 */
export async function startObjectStore(options: {
  directory: string;
  port: number;
  bucket: string;
  timeoutMs?: number;
}): Promise<RunningObjectStore> {
  const binary = process.env.VERSITYGW_BIN ?? DEFAULT_BINARY;
  if (!existsSync(binary)) {
    throw new Error(
      `No object store at ${binary}: run npm run dev or npm test once (they build it), or set S3_ENDPOINT`,
    );
  }
  const buckets = path.join(options.directory, 'buckets');
  const metadata = path.join(options.directory, 'metadata');
  await Promise.all([mkdir(buckets, { recursive: true }), mkdir(metadata, { recursive: true })]);
  // Fresh credentials each start: only the processes this stack configures can write.
  const accessKey = 'hotel-pms';
  const secretKey = randomBytes(24).toString('hex');
  const address = `127.0.0.1:${options.port}`;
  const child = spawn(binary, ['--port', address, '--quiet', 'posix', '--sidecar', metadata, buckets], {
    // The secret stays out of the command line (visible to every user in `ps`); no other VGW_* setting leaks in.
    env: { ROOT_ACCESS_KEY_ID: accessKey, ROOT_SECRET_ACCESS_KEY: secretKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const client = new Client({
    endPoint: '127.0.0.1',
    port: options.port,
    useSSL: false,
    accessKey,
    secretKey,
    region: 'us-east-1',
    pathStyle: true,
  });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const bucketExistsOnceReady = async (): Promise<boolean> => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The object store exited: ${stderr}`);
      try {
        return await client.bucketExists(options.bucket);
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`The object store did not start: ${stderr}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    if (!(await bucketExistsOnceReady())) await client.makeBucket(options.bucket, 'us-east-1');
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint: `http://${address}`, bucket: options.bucket, accessKey, secretKey, stop };
}
