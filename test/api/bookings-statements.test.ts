import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * The database work of a booking's creation, counted in statements (its cost per answer under load: each is a round
 * trip while the transaction holds its connection). Figures of speed are the bench's (`BENCH=bookings`).
 */
let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  await addStaff(t, owner, 'receptionist');
});
afterAll(() => t.close());

interface Statement {
  sql: string;
  /** The connection's id: a transaction's statements, its savepoints' too, all run on its one connection. */
  __knexUid?: string;
}

/**
 * The statements of the transaction that inserted the booking: those of its connection between the BEGIN before the
 * insert and the COMMIT after it (not by knex's transaction id, which a savepoint's nested transaction replaces).
 */
async function creationStatements(body: Record<string, unknown>) {
  const seen: Statement[] = [];
  const listener = (statement: Statement) => seen.push(statement);
  t.db.on('query', listener);
  try {
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/bookings`)
      .set(as(owner.accessToken))
      .send({ guest_last_name: 'Счётов', guest_first_name: 'Пётр', price: 1000, ...body })
      .expect(201);
    const insert = seen.findIndex((statement) => /insert into "bookings"/i.test(statement.sql));
    const connection = seen[insert].__knexUid;
    const ours = seen.map((statement, index) => ({ ...statement, index })).filter((s) => s.__knexUid === connection);
    const begin = ours.findLast((statement) => statement.index < insert && /^BEGIN/i.test(statement.sql))!;
    const commit = ours.find((statement) => statement.index > insert && /^COMMIT/i.test(statement.sql))!;
    const statements = ours
      .filter((statement) => statement.index > begin.index && statement.index < commit.index)
      .map((statement) => statement.sql);
    return { booking: response.body as { id: string }, statements };
  } finally {
    t.db.off('query', listener);
  }
}

describe("a booking's creation", () => {
  it("in one room: 10 statements, none reading its segments; its notification and event by one, its workflow's start and its event by another", async () => {
    const category = await createCategory(t, owner);
    const room = await createRoom(t, owner, category.id);
    const { booking, statements } = await creationStatements({
      room_id: room.id,
      check_in: '2027-05-10',
      check_out: '2027-05-12',
    });
    expect(statements).toHaveLength(10);
    // No savepoint (a nested transaction): each would be two more statements.
    expect(statements.filter((sql) => /SAVEPOINT/i.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /booking_rooms/.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /notification/.test(sql))).toHaveLength(1);

    // What the statement wrote is there when the answer is: the notification, for both staff, in their lists.
    const staff = await t
      .db('users')
      .where({ hotel_id: owner.hotelId, active: true })
      .orderBy('created_at')
      .pluck('id');
    const [made] = await t
      .db('notifications')
      .where({ hotel_id: owner.hotelId, dedupe_key: `booking_created:${booking.id}` });
    const recipients = await t.db('notification_recipients').where({ notification_id: made.id }).pluck('user_id');
    expect([...recipients].sort()).toEqual([...staff].sort());
    // Its event names them oldest account first, to every socket of the hotel.
    const [event] = await t
      .db('realtime_events')
      .where({ hotel_id: owner.hotelId, type: 'notification:new' })
      .whereRaw("payload->>'notification_id' = ?", [made.id]);
    expect(event).toMatchObject({
      audience: null,
      payload: {
        notification_id: made.id,
        type: 'booking_created',
        title: made.title,
        recipient_ids: staff,
        recipients_truncated: false,
      },
    });
    // The booking's own event follows, in the order of old, and its workflow's start is queued.
    const [created] = await t
      .db('realtime_events')
      .where({ hotel_id: owner.hotelId, type: 'booking_created' })
      .whereRaw("payload->>'booking_id' = ?", [booking.id]);
    expect(created).toMatchObject({ audience: null, payload: { booking_id: booking.id, room_id: room.id } });
    expect(Number(created.id)).toBeGreaterThan(Number(event.id));
    const started = await t.db('outbox').whereRaw("message->>'workflowId' = ?", [`booking:${booking.id}`]);
    expect(started).toEqual([expect.objectContaining({ message: expect.objectContaining({ kind: 'startWorkflow' }) })]);
    const inbox = await t.http.get(`/api/hotels/${owner.slug}/notifications`).set(as(owner.accessToken)).expect(200);
    expect(inbox.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: made.id, type: 'booking_created' })]),
    );
  });
});
