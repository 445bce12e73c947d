import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { messagesTo, type CaughtMessage } from '../helpers/mail';
import { until } from '../helpers/wait';
import { bringStayTo } from '../helpers/stays';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * Chromium: CHROMIUM_PATH (npm test's scripts/lib.sh ensure_chromium sets it, installing Debian's chromium where it
 * may), else chromium or chromium-browser on PATH. None is a failure saying so, never a skip.
 */
function chromiumPath(): string {
  const candidates = [
    process.env.CHROMIUM_PATH,
    ...(process.env.PATH ?? '')
      .split(path.delimiter)
      .flatMap((dir) => [path.join(dir, 'chromium'), path.join(dir, 'chromium-browser')]),
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this one
    }
  }
  throw new Error('No Chromium: set CHROMIUM_PATH or install Debian’s chromium (npm test does it where apt-get may)');
}
/** The bars' colour of the days past (reports.chart.ts), as 0xRRGGBB. */
const BAR_COLOUR = 0x2f6fb0;
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Run in the page on the chart's <img> (as source text: the browser's types are not this project's): whether it
 * loaded, its natural width, and how many of its pixels have the bars' colour, drawn on a canvas.
 */
const SEEN = `(img) => {
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let bars = 0;
  for (let i = 0; i < pixels.length; i += 4)
    if (((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]) === ${BAR_COLOUR}) bars += 1;
  return { complete: img.complete, width: img.naturalWidth, bars };
}`;

let t: TestApp;
let owner: RegisteredHotel;
let profile: string;
let browser: BrowserContext | undefined;

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: FLAGS,
    ignoreDefaultArgs: ['--headless=new'],
  });
});
afterAll(async () => {
  await browser?.close();
  rmSync(profile, { recursive: true, force: true });
  await t.close();
});

/** The HTML as a mail client shows it: each `cid:` reference replaced by its inline attachment. */
function asShown(message: CaughtMessage): string {
  return message.attachments.reduce(
    (html, attachment) =>
      attachment.cid
        ? html.replaceAll(`cid:${attachment.cid}`, `data:${attachment.contentType};base64,${attachment.content}`)
        : html,
    message.html,
  );
}

it('the daily report e-mail shows its chart, loaded and not blank, in headless Chromium', async () => {
  const category = await createCategory(t, owner);
  const room = await createRoom(t, owner, category.id);
  const booked = await t.http
    .post(`/api/hotels/${owner.slug}/bookings`)
    .set(as(owner.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(-2),
      check_out: localDay(3),
      guest_last_name: 'Графикова',
      guest_first_name: 'Вера',
      price: '15000.00',
    })
    .expect(201);
  // A room of a month ago, so the nights past have it available and their bars show.
  await t.db.raw(`UPDATE rooms SET created_at = now() - interval '30 days' WHERE hotel_id = ?`, [owner.hotelId]);
  await bringStayTo(t, owner, booked.body.id as string, 'checked_in');

  await t.http
    .post(`/api/hotels/${owner.slug}/reports/daily/send`)
    .set(as(owner.accessToken))
    .send({ date: localDay(-1) })
    .expect(202);
  const message = await until(
    async () => (await messagesTo(owner.email)).find((m) => m.subject.includes(`отчёт за ${localDay(-1)}`)),
    { what: 'the daily report e-mail', timeoutMs: 30_000 },
  );
  expect(message.attachments).toEqual([expect.objectContaining({ contentType: 'image/png', cid: expect.any(String) })]);

  const page = await browser!.newPage();
  await page.setContent(asShown(message), { waitUntil: 'load' });
  const chart = page.locator('img#chart');
  await chart.waitFor();
  const seen = (await page.evaluate(`(${SEEN})(document.querySelector('img#chart'))`)) as {
    complete: boolean;
    width: number;
    bars: number;
  };
  expect(seen.complete).toBe(true);
  expect(seen.width).toBeGreaterThan(0);
  // The bars of the nights sold are drawn: a good many pixels of their colour, which axes and text never have.
  expect(seen.bars).toBeGreaterThan(200);
  // What the screen shows of it is no blank box either.
  const shot = await chart.screenshot();
  expect(shot.length).toBeGreaterThan(1000);
  await page.close();
});
