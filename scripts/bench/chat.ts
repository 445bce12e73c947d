import { once } from 'node:events';
import { WebSocket, type RawData } from 'ws';
import { HISTORY_PAGE_SIZE, MAX_MEMBERS_PER_CHANGE } from '../../src/modules/chat/chat.rules';
import type { Db } from '../../src/platform/db/knex';
import { call, createSignedInStaff, mapConcurrently, signIn, type StaffSession } from './fixtures';
import { percentile } from './stats';

export interface ChatBenchOptions {
  /** Members of staff in the one group room, each with one socket. */
  staff?: number;
  /** Messages posted to it, by `senders` concurrent members. */
  messages?: number;
  senders?: number;
  /** Messages of the history room (inserted with SQL). */
  history?: number;
  /** Reads of each history page timed. */
  reads?: number;
}

const CONNECT_TIMEOUT_MS = 15_000;
const CONNECT_CONCURRENCY = 50;
/** How long one message may take to reach every socket before the sender moves on anyway. */
const DELIVERY_TIMEOUT_MS = 5000;
/** A read whose p50 is above this gets the plan of its query printed. */
const SLOW_QUERY_MS = 20;

const PHRASES = [
  'Гость из 204 просит поздний выезд до 14:00, согласуйте с горничными',
  'Полотенца в 3-й корпус доставлены, нужны ещё две подушки',
  'Late checkout approved for room 118, please update housekeeping',
  'Кондиционер в 512 снова шумит, техник посмотрит после обеда',
  'Taxi to the airport booked for 6:30, the guest pays by card',
  'Уборка 3 этажа закончена, 307 и 309 готовы к заселению',
  'Группа из 12 человек приезжает завтра к 10 утра, нужен ранний заезд',
  'Minibar in 221 restocked, two bottles of water were missing',
  'Кто может подменить на ресепшене с 20:00 до 22:00?',
  'Ключ-карта от 415 не работает, перезаписал, проверьте',
  'Breakfast for the conference starts at 7:00 in the small hall',
  'Бронирование на имя Смирнова перенесено на следующую пятницу',
];

const ms = (value: number) => `${value.toFixed(1)} ms`;
const summary = (sorted: number[]) =>
  `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`;

/** A staff socket on `/ws`, once the hub has said `connected`. */
async function connectStaff(wsBase: string, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`${wsBase}/ws?token=${encodeURIComponent(token)}`);
  try {
    const [first] = (await once(ws, 'message', { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) })) as [RawData];
    const { type } = JSON.parse(first.toString()) as { type: string };
    if (type !== 'connected') throw new Error(`chat bench: first frame ${type}`);
    return ws;
  } catch (error) {
    ws.terminate();
    throw error;
  }
}

/**
 * Staff chat on the running API at `baseUrl`, in the hotel of the owner `ownerEmail`:
 * - send to receive: `staff` members of staff in one group room (created with the first 100, the rest added 100 at a
 *   time, the most one request takes), each with its own `/ws`; `messages` posted by `senders` concurrent members,
 *   each one timed from just before its POST to every member socket's `chat:message` (the sockets share this
 *   process, so its reading of `staff` frames a message is included);
 * - history: `history` messages inserted with SQL in another room, then its first page, a page 50,000 messages back
 *   (`before` + `before_id`) and search.
 */
export async function benchChat(
  baseUrl: string,
  db: Db,
  ownerEmail: string,
  options: ChatBenchOptions = {},
): Promise<string[]> {
  const staffCount = options.staff ?? 300;
  const messageCount = options.messages ?? 200;
  const senders = options.senders ?? 4;
  const lines: string[] = [];

  const { hotel } = await signIn(baseUrl, ownerEmail);
  const chat = `${hotel}/chat`;
  const setupStarted = performance.now();
  const staff = await createSignedInStaff(baseUrl, db, ownerEmail, staffCount);
  lines.push(
    `chat setup: ${staff.length} staff created (1 through the API, the rest copied in SQL) and signed in through ` +
      `the API in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
  );

  const [creator, ...others] = staff;
  const { id: roomId } = await call<{ id: string }>(baseUrl, 'POST', `${chat}/rooms`, creator.token, {
    type: 'group',
    name: 'Bench everyone',
    member_ids: others.slice(0, MAX_MEMBERS_PER_CHANGE).map((member) => member.id),
  });
  for (let start = MAX_MEMBERS_PER_CHANGE; start < others.length; start += MAX_MEMBERS_PER_CHANGE) {
    await call(baseUrl, 'POST', `${chat}/rooms/${roomId}/members`, creator.token, {
      user_ids: others.slice(start, start + MAX_MEMBERS_PER_CHANGE).map((member) => member.id),
    });
  }
  const [{ members }] = (await db('chat_members').where({ room_id: roomId }).count({ members: '*' })) as {
    members: string;
  }[];

  const wsBase = baseUrl.replace(/^http/, 'ws');
  const sockets = await mapConcurrently(staff.length, CONNECT_CONCURRENCY, (i) =>
    connectStaff(wsBase, staff[i].token).catch(() => undefined),
  );
  try {
    const connected = sockets.filter((ws): ws is WebSocket => ws !== undefined);
    lines.push(...(await sendToReceive(baseUrl, chat, roomId, staff, connected, messageCount, senders, members)));
  } finally {
    for (const ws of sockets) ws?.terminate();
  }

  lines.push(...(await historyPages(baseUrl, db, chat, staff, options.history ?? 100_000, options.reads ?? 100)));
  return lines;
}

async function sendToReceive(
  baseUrl: string,
  chat: string,
  roomId: string,
  staff: StaffSession[],
  sockets: WebSocket[],
  messageCount: number,
  senders: number,
  members: string,
): Promise<string[]> {
  const sentAt = new Array<number>(messageCount);
  const received = new Array<number>(messageCount).fill(0);
  const complete = new Map<number, () => void>();
  const deliveries: number[] = [];
  const posts: number[] = [];
  let postErrors = 0;

  const onMessage = (data: RawData) => {
    const at = performance.now();
    const event = JSON.parse(data.toString()) as { type: string; payload: { room_id: string; text: string } };
    if (event.type !== 'chat:message' || event.payload.room_id !== roomId) return;
    const seq = Number(/^bench #(\d+) /.exec(event.payload.text)?.[1]);
    if (!(seq >= 0 && seq < messageCount)) return;
    deliveries.push(at - sentAt[seq]);
    if (++received[seq] >= sockets.length) complete.get(seq)?.();
  };
  for (const ws of sockets) ws.on('message', onMessage);

  const started = performance.now();
  await mapConcurrently(messageCount, senders, async (seq) => {
    const sender = staff[seq % staff.length];
    const delivered = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, DELIVERY_TIMEOUT_MS);
      complete.set(seq, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    sentAt[seq] = performance.now();
    const response = await fetch(`${baseUrl}${chat}/rooms/${roomId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sender.token}` },
      body: JSON.stringify({ text: `bench #${seq} ${PHRASES[seq % PHRASES.length]}` }),
    });
    await response.arrayBuffer();
    posts.push(performance.now() - sentAt[seq]);
    if (response.status !== 201) {
      postErrors++;
      complete.get(seq)?.();
    }
    await delivered;
    complete.delete(seq);
  });
  const seconds = (performance.now() - started) / 1000;

  deliveries.sort((a, b) => a - b);
  posts.sort((a, b) => a - b);
  const expected = sockets.length * messageCount;
  return [
    `chat send-to-receive (1 group room of ${members} members, ${sockets.length}/${staff.length} sockets connected, ` +
      `${messageCount} messages from ${senders} concurrent senders, ${(messageCount / seconds).toFixed(1)} messages/s):`,
    `  POST -> every member socket's chat:message: ${summary(deliveries)}; delivered ${deliveries.length}/${expected}`,
    `  POST rooms/:id/messages itself: ${summary(posts)} (${postErrors} errors)`,
  ];
}

async function historyPages(
  baseUrl: string,
  db: Db,
  chat: string,
  staff: StaffSession[],
  count: number,
  reads: number,
): Promise<string[]> {
  const [reader, other] = staff;
  const { id: roomId } = await call<{ id: string }>(baseUrl, 'POST', `${chat}/rooms`, reader.token, {
    type: 'group',
    name: 'Bench history',
    member_ids: [other.id],
  });
  const { hotel_id: hotelId } = (await db('chat_rooms').where({ id: roomId }).first('hotel_id')) as {
    hotel_id: string;
  };
  const insertStarted = performance.now();
  // About 26 s apart with some jitter (100,000 messages: a month), to the millisecond as the API keeps them.
  await db.raw(
    `INSERT INTO chat_messages (hotel_id, room_id, sender_id, is_system, text, created_at)
     SELECT :hotel, :room, (ARRAY[:reader, :other]::uuid[])[1 + i % 2], false,
            (:phrases::text[])[1 + (i * 7919) % :phraseCount] || ' (' || i || ')',
            date_trunc('milliseconds', now() - make_interval(secs => (:count - i) * 26 + random() * 20))
       FROM generate_series(1, :count) AS i`,
    {
      hotel: hotelId,
      room: roomId,
      reader: reader.id,
      other: other.id,
      phrases: PHRASES,
      phraseCount: PHRASES.length,
      count,
    },
  );
  await db.raw('ANALYZE chat_messages');
  const lines = [
    `chat history (${count} messages inserted with SQL in ${((performance.now() - insertStarted) / 1000).toFixed(1)} s` +
      `, then ANALYZE; ${reads} reads each, one at a time):`,
  ];

  let lastPage: { id: string }[] = [];
  const time = async (path: string): Promise<{ ms: number; rows: number }> => {
    const t0 = performance.now();
    lastPage = await call<{ id: string }[]>(baseUrl, 'GET', path, reader.token);
    return { ms: performance.now() - t0, rows: lastPage.length };
  };
  const timeMany = async (label: string, path: string, times: number) => {
    const results: { ms: number; rows: number }[] = [];
    for (let i = 0; i < times; i++) results.push(await time(path));
    const sorted = results.map((result) => result.ms).sort((a, b) => a - b);
    const rows = [...new Set(results.map((result) => result.rows))].join('/');
    lines.push(`  ${label}: ${summary(sorted)}; ${rows} rows`);
    return percentile(sorted, 50);
  };

  const history = `${chat}/rooms/${roomId}/messages`;
  await timeMany('first page', history, reads);
  const deep = Math.min(50_000, count - 1);
  const cursorRows = (await db('chat_messages')
    .where({ room_id: roomId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset(deep - 1)
    .limit(2)
    .select('id', 'created_at')) as { id: string; created_at: Date }[];
  const [cursor, next] = cursorRows;
  const before = cursor.created_at.toISOString();
  const deepPath = `${history}?${new URLSearchParams({ before, before_id: cursor.id })}`;
  const deepP50 = await timeMany(`page ${deep} messages back (before + before_id)`, deepPath, reads);
  lines.push(`    it starts at message ${deep + 1} from the newest: ${lastPage[0]?.id === next.id ? 'yes' : 'NO'}`);
  await timeMany(`page ${deep} messages back (before only)`, `${history}?${new URLSearchParams({ before })}`, reads);
  if (deepP50 > SLOW_QUERY_MS) {
    lines.push(
      ...(await plan(
        db,
        `SELECT id FROM chat_messages WHERE hotel_id = ? AND room_id = ? AND (created_at, id) < (?, ?)
          ORDER BY created_at DESC, id DESC LIMIT ${HISTORY_PAGE_SIZE}`,
        [hotelId, roomId, before, cursor.id],
      )),
    );
  }

  // A word in one message of 12 (~8,300 matches), and one message's own number (one match).
  const searches = [
    ['полотенца', `common word`],
    [String(Math.floor(count / 2)), 'one match'],
  ] as const;
  for (const [q, what] of searches) {
    for (const scope of [{ room_id: roomId }, {}] as Record<string, string>[]) {
      const label = `search q=${q} (${what}${'room_id' in scope ? ', room_id' : ', all rooms'})`;
      const p50 = await timeMany(label, `${chat}/search?${new URLSearchParams({ q, ...scope })}`, 5);
      if (p50 <= SLOW_QUERY_MS || !('room_id' in scope)) continue;
      lines.push(
        ...(await plan(
          db,
          `SELECT id FROM chat_messages WHERE hotel_id = ? AND room_id = ? AND deleted_at IS NULL
              AND search @@ (websearch_to_tsquery('russian', ?) || websearch_to_tsquery('english', ?))
            ORDER BY created_at DESC, id DESC LIMIT 50`,
          [hotelId, roomId, q, q],
        )),
      );
    }
  }
  return lines;
}

/** EXPLAIN ANALYZE of a query like the route's, indented under its figure. */
async function plan(db: Db, sql: string, bindings: readonly (string | number)[]): Promise<string[]> {
  const result = (await db.raw(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, bindings)) as {
    rows: { 'QUERY PLAN': string }[];
  };
  return result.rows.map((row) => `      ${row['QUERY PLAN']}`);
}
