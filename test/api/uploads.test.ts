import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, superAdminToken, type RegisteredHotel } from '../helpers/accounts';
import { getFile } from '../helpers/files';
import { problem } from '../helpers/problem';

/** A valid 1x1 PNG (RGBA). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A valid 1x1 grey baseline JPEG, built marker by marker. */
function tinyJpeg(): Buffer {
  const segment = (marker: number, payload: number[]) => [
    0xff,
    marker,
    (payload.length + 2) >> 8,
    (payload.length + 2) & 0xff,
    ...payload,
  ];
  // A Huffman table with a single 1-bit code "0" for the symbol 0 (DC: difference 0; AC: end of block).
  const oneCodeTable = (classAndId: number) => [classAndId, 1, ...new Array<number>(15).fill(0), 0x00];
  return Buffer.from([
    ...[0xff, 0xd8], // SOI
    ...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT 0: every step 1
    ...segment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0: 8 bits, 1x1, one component
    ...segment(0xc4, oneCodeTable(0x00)), // DHT DC 0
    ...segment(0xc4, oneCodeTable(0x10)), // DHT AC 0
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // scan: DC "0", AC end of block "0", padded with 1-bits
    ...[0xff, 0xd9], // EOI
  ]);
}
const JPEG = tinyJpeg();

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

let t: TestApp;
let hotelA: RegisteredHotel;
let hotelB: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [hotelA, hotelB] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

interface FileOptions {
  filename?: string;
  contentType?: string;
  folder?: string;
}

function upload(app: TestApp, token: string, content: Buffer, options: FileOptions = {}) {
  const request = app.http.post('/api/upload').set(as(token));
  if (options.folder) void request.query({ folder: options.folder });
  return request.attach('file', content, {
    filename: options.filename ?? 'photo.png',
    contentType: options.contentType ?? 'image/png',
  });
}

/** A file at its {cdn_url} address, which is the API's own (`/api/files/…`) in tests. */
async function download(url: string) {
  const response = await getFile(t.http, url);
  return {
    status: response.status,
    contentType: response.headers['content-type'] as string | undefined,
    nosniff: response.headers['x-content-type-options'] as string | undefined,
    body: response.body as Buffer,
  };
}

const rowsOf = (hotelId: string) => t.db('uploads').where({ hotel_id: hotelId }).orderBy('created_at');

describe('POST /api/upload', () => {
  it('stores a PNG in rooms by default, served at {cdn_url}/rooms/<uuid>.png with the same bytes', async () => {
    const response = await upload(t, hotelA.accessToken, PNG).expect(201);
    expect(response.body).toEqual({
      url: expect.stringMatching(new RegExp(`^${escape(t.config.cdnUrl)}/rooms/${UUID}\\.png$`)),
      key: expect.stringMatching(new RegExp(`^rooms/${UUID}\\.png$`)),
      folder: 'rooms',
      content_type: 'image/png',
      size: PNG.length,
    });
    expect(response.body.url).toBe(`${t.config.cdnUrl}/${response.body.key}`);

    const file = await download(response.body.url);
    expect(file.status).toBe(200);
    expect(file.contentType).toBe('image/png');
    expect(file.nosniff).toBe('nosniff');
    expect(file.body.equals(PNG)).toBe(true);

    const row = await t.db('uploads').where({ key: response.body.key }).first();
    expect(row).toMatchObject({
      hotel_id: hotelA.hotelId,
      folder: 'rooms',
      content_type: 'image/png',
      size_bytes: PNG.length,
      uploaded_by: hotelA.userId,
    });
  });

  it('decides the type by content: a JPEG named photo.png and sent as image/png is stored as .jpg', async () => {
    const housekeeper = await addStaff(t, hotelA, 'housekeeper');
    const response = await upload(t, housekeeper.accessToken, JPEG, { folder: 'guests' }).expect(201);
    expect(response.body).toMatchObject({ folder: 'guests', content_type: 'image/jpeg', size: JPEG.length });
    expect(response.body.url).toMatch(new RegExp(`^${escape(t.config.cdnUrl)}/guests/${UUID}\\.jpg$`));

    const file = await download(response.body.url);
    expect(file.status).toBe(200);
    expect(file.contentType).toBe('image/jpeg');
    expect(file.body.equals(JPEG)).toBe(true);
  });

  it('accepts every folder of the spec, each upload under a new name', async () => {
    const folders = ['categories', 'rooms', 'hotels', 'guests', 'tasks', 'chat'];
    const urls: string[] = [];
    for (const folder of folders) {
      const response = await upload(t, hotelA.accessToken, PNG, { folder }).expect(201);
      expect(response.body.url).toMatch(new RegExp(`^${escape(t.config.cdnUrl)}/${folder}/${UUID}\\.png$`));
      urls.push(response.body.url);
    }
    expect(new Set(urls).size).toBe(folders.length);
  });

  it('415 for a script disguised as an image, and nothing is stored', async () => {
    const before = (await rowsOf(hotelA.hotelId)).length;
    const response = await upload(t, hotelA.accessToken, Buffer.from('<script>alert(1)</script>'), {
      filename: 'evil.png',
      contentType: 'image/png',
    }).expect(415);
    expect(response.body).toEqual(
      problem(
        415,
        'unsupported_media_type',
        'Неподдерживаемый формат файла: загрузите изображение JPEG, PNG, GIF или WebP',
      ),
    );
    expect(await rowsOf(hotelA.hotelId)).toHaveLength(before);
  });

  it('413 over UPLOAD_MAX_BYTES with nothing stored; a file of exactly the limit is accepted', async () => {
    const small = createTestApp({ UPLOAD_MAX_BYTES: '2048' });
    try {
      // A whole PNG of exactly `size` bytes: the 1x1 image with a text chunk of filler before its IEND.
      const pngPrefixed = (size: number) => {
        const iendAt = PNG.length - 12;
        const text = Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(size - PNG.length - 12 - 8, 0x41)]);
        const head = Buffer.alloc(8);
        head.writeUInt32BE(text.length, 0);
        head.write('tEXt', 4, 'latin1');
        const crc = Buffer.alloc(4);
        crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), text])), 0);
        return Buffer.concat([PNG.subarray(0, iendAt), head, text, crc, PNG.subarray(iendAt)]);
      };
      const before = (await rowsOf(hotelA.hotelId)).length;
      const tooBig = await upload(small, hotelA.accessToken, pngPrefixed(4096)).expect(413);
      expect(tooBig.body).toEqual(problem(413, 'payload_too_large', 'Файл слишком большой: допустимо не более 2 КБ'));
      expect(await rowsOf(hotelA.hotelId)).toHaveLength(before);

      const justFits = await upload(small, hotelA.accessToken, pngPrefixed(2048)).expect(201);
      expect(justFits.body.size).toBe(2048);
      await upload(small, hotelA.accessToken, pngPrefixed(2049)).expect(413);
      expect(await rowsOf(hotelA.hotelId)).toHaveLength(before + 1);
    } finally {
      await small.close();
    }
  });

  it('400 for an unknown folder', async () => {
    for (const folder of ['secrets', '../rooms', 'rooms/..', 'ROOMS']) {
      const response = await upload(t, hotelA.accessToken, PNG, { folder }).expect(400);
      expect(response.body.details).toEqual([expect.objectContaining({ path: 'query.folder' })]);
    }
  });

  it('400 without exactly one non-empty file in the field "file"', async () => {
    const token = hotelA.accessToken;
    const before = (await rowsOf(hotelA.hotelId)).length;
    const noFile = await t.http.post('/api/upload').set(as(token)).field('note', 'no file here').expect(400);
    expect(noFile.body).toEqual(
      problem(400, 'validation_failed', 'Файл не передан: ожидается непустой файл в поле file'),
    );
    await t.http.post('/api/upload').set(as(token)).field('file', 'text, not a file').expect(400);
    await t.http
      .post('/api/upload')
      .set(as(token))
      .attach('file', Buffer.alloc(0), { filename: 'empty.png', contentType: 'image/png' })
      .expect(400);
    await t.http
      .post('/api/upload')
      .set(as(token))
      .attach('photo', PNG, { filename: 'a.png', contentType: 'image/png' })
      .expect(400);
    await t.http
      .post('/api/upload')
      .set(as(token))
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
      .attach('file', PNG, { filename: 'b.png', contentType: 'image/png' })
      .expect(400);
    expect(await rowsOf(hotelA.hotelId)).toHaveLength(before);
  });

  it('400 for a body that is not multipart', async () => {
    const json = await t.http.post('/api/upload').set(as(hotelA.accessToken)).send({ file: 'x' }).expect(400);
    expect(json.body).toEqual(
      problem(400, 'validation_failed', 'Ожидается тело multipart/form-data с файлом в поле file'),
    );
    await t.http.post('/api/upload').set(as(hotelA.accessToken)).set('Content-Type', 'image/png').send(PNG).expect(400);
    await t.http.post('/api/upload').set(as(hotelA.accessToken)).expect(400);
    await t.http
      .post('/api/upload')
      .set(as(hotelA.accessToken))
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n')
      .expect(400);
  });

  it('401 without a token, 403 for super_admin (who belongs to no hotel)', async () => {
    await t.http.post('/api/upload').attach('file', PNG, { filename: 'a.png', contentType: 'image/png' }).expect(401);
    const superAdmin = await superAdminToken(t, 60);
    const refused = await upload(t, superAdmin, PNG).expect(403);
    expect(refused.body).toEqual(problem(403, 'no_hotel', 'Загружать и удалять файлы могут только сотрудники отеля'));
    await t.http
      .delete('/api/upload')
      .query({ url: `${t.config.cdnUrl}/rooms/${randomUUID()}.png` })
      .expect(401);
    await t.http
      .delete('/api/upload')
      .set(as(superAdmin))
      .query({ url: `${t.config.cdnUrl}/rooms/${randomUUID()}.png` })
      .expect(403);
  });
});

describe('DELETE /api/upload', () => {
  it("removes the hotel's file: gone from the store and from the records", async () => {
    const receptionist = await addStaff(t, hotelA, 'receptionist');
    const { body } = await upload(t, hotelA.accessToken, PNG, { folder: 'tasks' }).expect(201);
    expect((await download(body.url)).status).toBe(200);

    const deleted = await t.http
      .delete('/api/upload')
      .set(as(receptionist.accessToken))
      .query({ url: body.url })
      .expect(200);
    expect(deleted.body).toEqual({ ok: true });
    expect((await download(body.url)).status).toBe(404);
    expect(await t.db('uploads').where({ key: body.key }).first()).toBeUndefined();

    const again = await t.http.delete('/api/upload').set(as(hotelA.accessToken)).query({ url: body.url }).expect(404);
    expect(again.body).toEqual(problem(404, 'not_found', 'Файл не найден'));
  });

  it('400 for traversal, foreign or malformed URLs, and the file they aim at stays', async () => {
    const { body } = await upload(t, hotelA.accessToken, PNG).expect(201);
    const cdn = t.config.cdnUrl;
    const name = body.key.split('/')[1];
    const refused = [
      `${cdn}/rooms/../secret.png`,
      `${cdn}/rooms/%2e%2e/x.png`,
      `${cdn}/rooms/%2E%2E/${name}`,
      `${cdn}/tasks/../rooms/${name}`,
      `${cdn}/tasks/%2e%2e/rooms/${name}`,
      `${cdn}/rooms/..%2f${name}`,
      `${cdn}/rooms\\${name}`,
      `${cdn}//rooms/${name}`,
      `${cdn}/rooms//${name}`,
      `${cdn}/./rooms/${name}`,
      `${cdn}/rooms/${name}?x=1`,
      `${cdn}/rooms/${name}#x`,
      `${cdn}/rooms/%72${name.slice(1)}`,
      `http://evil.example/${new URL(cdn).pathname.slice(1)}/${body.key}`,
      `${cdn.replace('http://', 'http://user@')}/${body.key}`,
      `${cdn}-other/${body.key}`,
      `${cdn}/rooms/secret.png`,
      `${cdn}/rooms/${name.toUpperCase()}`,
      `${cdn}/secrets/${name}`,
      `${cdn}/rooms/${name.replace('.png', '.svg')}`,
      `${cdn}/rooms/${name} `,
      body.key,
      `/${body.key}`,
      'not a url',
      '',
    ];
    for (const url of refused) {
      const response = await t.http.delete('/api/upload').set(as(hotelA.accessToken)).query({ url });
      expect({ url, status: response.status }).toEqual({ url, status: 400 });
    }
    await t.http.delete('/api/upload').set(as(hotelA.accessToken)).expect(400);
    expect((await download(body.url)).status).toBe(200);
    expect(await t.db('uploads').where({ key: body.key }).first()).toBeDefined();
  });

  it('404 for a well-formed URL of a file that does not exist', async () => {
    await t.http
      .delete('/api/upload')
      .set(as(hotelA.accessToken))
      .query({ url: `${t.config.cdnUrl}/rooms/${randomUUID()}.png` })
      .expect(404);
  });

  it('another hotel cannot delete the file: 404 like a missing one, and the file stays', async () => {
    const { body } = await upload(t, hotelA.accessToken, PNG, { folder: 'hotels' }).expect(201);
    const response = await t.http
      .delete('/api/upload')
      .set(as(hotelB.accessToken))
      .query({ url: body.url })
      .expect(404);
    expect(response.body).toEqual(problem(404, 'not_found', 'Файл не найден'));
    const file = await download(body.url);
    expect(file.status).toBe(200);
    expect(file.body.equals(PNG)).toBe(true);
    expect(await t.db('uploads').where({ key: body.key, hotel_id: hotelA.hotelId }).first()).toBeDefined();
  });
});

describe('OpenAPI', () => {
  it('documents the multipart upload and the delete', async () => {
    const { body } = await t.http.get('/api/openapi.json').expect(200);
    const post = body.paths['/api/upload'].post;
    expect(post.requestBody.content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(post.requestBody.content['application/json']).toBeUndefined();
    expect(post.parameters).toEqual([expect.objectContaining({ name: 'folder', in: 'query', required: false })]);
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '413', '415']));
    const del = body.paths['/api/upload'].delete;
    expect(del.parameters).toEqual([expect.objectContaining({ name: 'url', in: 'query', required: true })]);
    expect(Object.keys(del.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
  });
});
