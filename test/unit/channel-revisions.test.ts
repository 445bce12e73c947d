import { placementOf } from '../../src/modules/channel-intake/channel-intake.booking';
import { parseFeed, parseRevision } from '../../src/modules/channels/channels.channex-revisions';
import { channelFailure } from '../../src/modules/channels/channels.errors';
import { ChannelError } from '../../src/modules/channels/channels.manager';
import { channelMicros } from '../../src/modules/channels/channels.revisions';

/** What a read's failure answers (through the one mapping of a channel's failure). */
function failureOf(read: () => unknown) {
  try {
    read();
  } catch (error) {
    return error instanceof ChannelError ? channelFailure(error, 'connection') : error;
  }
  throw new Error('read without failing');
}

/** A revision as Channex answers one, with what the test changes. */
function answer(attributes: Record<string, unknown> = {}) {
  return {
    data: {
      id: 'rev-1',
      type: 'booking_revision',
      attributes: {
        id: 'rev-1',
        booking_id: 'bk-1',
        property_id: 'prop-1',
        status: 'new',
        ota_name: 'Booking.com',
        ota_reservation_code: '4711',
        inserted_at: '2026-11-28T01:00:00.000Z',
        currency: 'RUB',
        payment_collect: 'ota',
        customer: { name: 'Ivan', surname: 'Petrov', mail: 'ivan@example.com', phone: '+79001234567' },
        rooms: [
          {
            room_type_id: 'rt-1',
            rate_plan_id: 'rp-1',
            checkin_date: '2026-12-01',
            checkout_date: '2026-12-03',
            amount: '9000.00',
            days: { '2026-12-01': '4000.00', '2026-12-02': '5000.00' },
            occupancy: { adults: 2, children: 1, infants: 0 },
          },
        ],
        ...attributes,
      },
    },
  };
}

const mapping = {
  propertyId: 'prop-1',
  categoryOf: (id: string) => (id === 'rt-1' ? 'category-1' : undefined),
  tariffOf: (id: string) => (id === 'rp-1' ? 'tariff-1' : undefined),
};

test('a channel that did not answer is a 503 whose cause, kept for the log, names the call that failed', () => {
  const error = new ChannelError('unavailable', 'Channex answered 502 to GET /booking_revisions/feed', 502);
  const failure = channelFailure(error, 'connection');
  expect(failure).toMatchObject({ status: 503, code: 'channel_unavailable', retryAfterSeconds: 30 });
  expect(failure.cause).toBe(error);
});

describe('a Channex booking revision', () => {
  it('is read with its booking, its order at the channel, who collects the payment and each night’s price', () => {
    const revision = parseRevision(answer());
    expect(revision).toMatchObject({
      id: 'rev-1',
      bookingId: 'bk-1',
      kind: 'new',
      paymentCollect: 'ota',
      insertedAt: '2026-11-28T01:00:00.000Z',
      rooms: [{ roomTypeId: 'rt-1', nights: { '2026-12-01': '4000.00', '2026-12-02': '5000.00' }, adults: 2 }],
    });
  });

  it('keeps the channel’s time to the microsecond, and the guest’s fields cut to what a booking takes', () => {
    const revision = parseRevision(
      answer({
        inserted_at: '2026-11-28T01:00:00.123456Z',
        customer: { name: 'N'.repeat(300), surname: 'Petrov', mail: null, phone: '+7'.padEnd(80, '1') },
      }),
    );
    expect(revision.insertedAt).toBe('2026-11-28T01:00:00.123456Z');
    expect(channelMicros(revision.insertedAt) - channelMicros('2026-11-28T01:00:00.123455Z')).toBe(1n);
    expect(channelMicros('2026-11-28T04:00:00.5+03:00')).toBe(channelMicros('2026-11-28T01:00:00.500000Z'));
    expect(revision.customer.name).toHaveLength(100);
    expect(revision.customer.phone).toHaveLength(30);
  });

  it('not of the documented shape is the channel’s fault (502), never read in part', () => {
    expect(failureOf(() => parseRevision({ data: { id: 'rev-1', attributes: { status: 'lost' } } }))).toMatchObject({
      status: 502,
      code: 'channel_answer',
    });
    expect(failureOf(() => parseFeed({ data: 'nothing' }))).toMatchObject({ status: 502, code: 'channel_answer' });
    expect(parseFeed({ data: [{ id: 'a' }, { id: 'b' }, {}] })).toEqual(['a', 'b']);
  });

  it('makes an OTA booking of its mapped category and tariff, priced as the sum of its nights', () => {
    const placement = placementOf(parseRevision(answer()), mapping);
    expect(placement).toMatchObject({
      ok: true,
      categoryId: 'category-1',
      input: {
        source: 'ota',
        check_in: '2026-12-01',
        check_out: '2026-12-03',
        guest_last_name: 'Petrov',
        guest_first_name: 'Ivan',
        guests_count: 3,
        tariff_id: 'tariff-1',
        price: '9000.00',
      },
    });
    const notes = placement.ok ? placement.input.notes : '';
    expect(notes).toContain('Booking.com · 4711');
    expect(notes).toContain('Оплату получает: OTA');
    expect(notes).toContain('2026-12-01: 4000.00');
  });

  it('cannot be placed when its room type is not mapped, or it asks for several rooms', () => {
    const unmapped = parseRevision(answer({ rooms: [{ ...answer().data.attributes.rooms[0], room_type_id: 'rt-9' }] }));
    expect(placementOf(unmapped, mapping)).toMatchObject({ ok: false, reason: 'unmapped_room_type' });
    const room = answer().data.attributes.rooms[0];
    expect(placementOf(parseRevision(answer({ rooms: [room, room] })), mapping)).toMatchObject({
      ok: false,
      reason: 'several_rooms',
    });
    expect(placementOf(unmapped, mapping, 'room-7')).toMatchObject({ ok: true, input: { room_id: 'room-7' } });
  });
});
