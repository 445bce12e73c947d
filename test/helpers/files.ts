import type supertest from 'supertest';

/** A supertest parser reading a response's body as bytes (`.buffer(true).parse(asBytes)`). */
export function asBytes(res: supertest.Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

/** A file the API serves at its `{cdn_url}` address (`/api/files/…` in tests), its body as bytes. */
export function getFile(http: ReturnType<typeof supertest>, url: string) {
  return http.get(new URL(url).pathname).buffer(true).parse(asBytes);
}
