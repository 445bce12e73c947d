import { mkdtempSync, rmSync } from 'node:fs';
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

/** Debian's chromium (scripts/lib.sh ensure_chromium installs it), headless, with nothing of its own reaching out. */
const CHROMIUM = '/usr/bin/chromium';
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
 * loaded, its natural width, and how many colours its pixels have (up to 10), drawn on a canvas.
 */
const SEEN = `(img) => {
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const colours = new Set();
  for (let i = 0; i < pixels.length && colours.size < 10; i += 4)
    colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
  return { complete: img.complete, width: img.naturalWidth, colours: colours.size };
}`;

let t: TestApp;
let owner: RegisteredHotel;
let profile: string;
let browser: BrowserContext;

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    ignoreDefaultArgs: ['--headless=new'],
  });
});
afterAll(async () => {
  await browser.close();
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
  await bringStayTo(t, owner, booked.body.id as string, 'checked_in');

  await t.http
    .post(`/api/hotels/${owner.slug}/reports/daily/send`)
    .set(as(owner.accessToken))
    .send({ date: localDay(-1) })
    .expect(202);
  const message = await until(
    async () => (await messagesTo(owner.email)).find((m) => m.subject.includes(`отчёт за ${localDay(-1)}`)),
    { what: 'the daily report e-mail', timeoutMs: 60_000 },
  );
  expect(message.attachments).toEqual([expect.objectContaining({ contentType: 'image/png', cid: expect.any(String) })]);

  const page = await browser.newPage();
  await page.setContent(asShown(message), { waitUntil: 'load' });
  const chart = page.locator('img#chart');
  await chart.waitFor();
  const seen = (await page.evaluate(`(${SEEN})(document.querySelector('img#chart'))`)) as {
    complete: boolean;
    width: number;
    colours: number;
  };
  expect(seen.complete).toBe(true);
  expect(seen.width).toBeGreaterThan(0);
  expect(seen.colours).toBeGreaterThan(1);
  // What the screen shows of it is no blank box either.
  const shot = await chart.screenshot();
  expect(shot.length).toBeGreaterThan(1000);
  await page.close();
});
