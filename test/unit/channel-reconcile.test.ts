import { randomUUID } from 'node:crypto';
import { createChannexManager } from '../../src/modules/channels/channels.channex';
import { channexAriReads } from '../../src/modules/channels/channels.channex-reads';
import {
  heldDifferences,
  READ_CELLS,
  readHeld,
  withoutDifferences,
} from '../../src/modules/channels/channels.reconcile';
import type { ChannelManager, DateRange, RateValues } from '../../src/modules/channels/channels.manager';
import type { PushedState } from '../../src/modules/channels/channels.types';
import { fakeChannexControl, startFakeChannex, type FakeChannex } from '../fakes/channex';

const dates = ['2027-01-01', '2027-01-02', '2027-01-03'];
const night: RateValues = {
  rate: '100.00',
  min_stay_arrival: 1,
  min_stay_through: 1,
  max_stay: 0,
  closed_to_arrival: false,
  closed_to_departure: false,
  stop_sell: false,
};
const items = { availability: ['rt'], restrictions: ['rp'], roomTypeOf: new Map<string, string>() };

describe('reconciliation: the comparison', () => {
  const sent: PushedState = {
    availability: { rt: { '2027-01-01': 2, '2027-01-02': 2 } },
    restrictions: { rp: { '2027-01-01': night, '2027-01-02': { ...night, rate: '100' } } },
  };

  it('finds nothing when the channel holds what was sent, rates compared as amounts ("100" is "100.00")', () => {
    const held = {
      availability: { rt: { '2027-01-01': 2, '2027-01-02': 2, '2027-01-03': 0 } },
      restrictions: { rp: { '2027-01-01': { ...night, rate: '100' }, '2027-01-02': night } },
    };
    expect(heldDifferences(dates, items, sent, held)).toEqual([]);
  });

  it('names each differing item-day with its differing fields, ours and the channel’s; a day it lacks differs', () => {
    const held = {
      availability: { rt: { '2027-01-01': 0 } },
      restrictions: { rp: { '2027-01-01': { ...night, rate: '1.00', stop_sell: true }, '2027-01-02': night } },
    };
    expect(heldDifferences(dates, items, sent, held)).toEqual([
      { kind: 'availability', item_id: 'rt', date: '2027-01-01', sent: { availability: 2 }, held: { availability: 0 } },
      { kind: 'availability', item_id: 'rt', date: '2027-01-02', sent: { availability: 2 }, held: {} },
      {
        kind: 'restrictions',
        item_id: 'rp',
        date: '2027-01-01',
        sent: { rate: '100.00', stop_sell: false },
        held: { rate: '1.00', stop_sell: true },
      },
    ]);
  });

  it('compares only the days sent and the items mapped now', () => {
    const held = { availability: { rt: {}, old: {} }, restrictions: {} };
    const unmapped = { availability: [], restrictions: [], roomTypeOf: new Map<string, string>() };
    expect(heldDifferences(dates, unmapped, sent, held)).toEqual([]);
    expect(heldDifferences(['2027-01-03'], items, sent, held)).toEqual([]);
  });

  it('takes a stop-sell the channel shows on a day its room type has no rooms for our open day (a tolerance)', () => {
    const sold = { ...items, roomTypeOf: new Map([['rp', 'rt']]) };
    const held = {
      availability: { rt: { '2027-01-01': 0, '2027-01-02': 1 } },
      restrictions: {
        rp: { '2027-01-01': { ...night, stop_sell: true }, '2027-01-02': { ...night, stop_sell: true } },
      },
    };
    const withZero = { ...sent, availability: { rt: { '2027-01-01': 0, '2027-01-02': 1 } } };
    // Sold out on the first day: the stop-sell is the channel's own; on the second it is not.
    expect(heldDifferences(dates, sold, withZero, held)).toEqual([
      {
        kind: 'restrictions',
        item_id: 'rp',
        date: '2027-01-02',
        sent: { stop_sell: false },
        held: { stop_sell: true },
      },
    ]);
  });

  it('drops the differing days from what the channel is believed to hold, the rows it changed only', () => {
    const differences = heldDifferences(dates, items, sent, {
      availability: { rt: { '2027-01-01': 5, '2027-01-02': 2 } },
      restrictions: { rp: { '2027-01-01': night, '2027-01-02': night } },
    });
    const { state, rows } = withoutDifferences(sent, differences);
    expect(rows).toEqual([{ kind: 'availability', item_id: 'rt', dates: { '2027-01-02': 2 } }]);
    expect(state.availability.rt).toEqual({ '2027-01-02': 2 });
    expect(state.restrictions).toEqual(sent.restrictions);
    expect(sent.availability.rt).toEqual({ '2027-01-01': 2, '2027-01-02': 2 });
  });
});

describe('reconciliation: the reads', () => {
  const year = Array.from({ length: 365 }, (_, index) =>
    new Date(Date.UTC(2027, 0, 1 + index)).toISOString().slice(0, 10),
  );
  /** A manager whose reads answer `width` items a day and log the ranges asked. */
  const stub = (width: { availability: number; restrictions: number }) => {
    const asked: [string, DateRange][] = [];
    const answer = (kind: keyof typeof width, range: DateRange) => {
      asked.push([kind, range]);
      return Object.fromEntries(Array.from({ length: width[kind] }, (_, index) => [`${kind}-${index}`, {}]));
    };
    const manager = {
      readAvailability: async (_: unknown, range: DateRange) => answer('availability', range),
      readRestrictions: async (_: unknown, range: DateRange) => answer('restrictions', range),
    } as unknown as ChannelManager;
    return { asked, manager };
  };
  const input = (manager: ChannelManager, ratePlans: number) => ({
    hotelId: 'h',
    request: 'r',
    manager,
    credentials: { apiKey: 'k', propertyId: 'p' },
    dates: year,
    items: {
      availability: ['rt'],
      restrictions: Array.from({ length: ratePlans }, (_, index) => `restrictions-${index}`),
      roomTypeOf: new Map<string, string>(),
    },
    sent: { availability: {}, restrictions: {} },
  });

  it('reads a large property in chunks of at most READ_CELLS cells, sized by the items the channel answers', async () => {
    const { asked, manager } = stub({ availability: 1, restrictions: 250 });
    const request = input(manager, 200);
    await readHeld(request, request.items);
    expect(asked.filter(([kind]) => kind === 'availability')).toEqual([
      ['availability', { date_from: year[0], date_to: year[364] }],
    ]);
    const chunks = asked.filter(([kind]) => kind === 'restrictions').map(([, range]) => range);
    // 200 mapped: 100 days first; the channel answers 250 plans: 80 days a call after.
    expect(chunks.map((range) => year.indexOf(range.date_to) - year.indexOf(range.date_from) + 1)).toEqual([
      100, 80, 80, 80, 25,
    ]);
    expect(chunks.every((range, index) => index === 0 || range.date_from > chunks[index - 1].date_to)).toBe(true);
    expect(READ_CELLS).toBe(20_000);
  });

  it('reads no restrictions when no rate plan is mapped', async () => {
    const { asked, manager } = stub({ availability: 1, restrictions: 3 });
    const request = input(manager, 0);
    await readHeld(request, request.items);
    expect(asked.map(([kind]) => kind)).toEqual(['availability']);
  });

  it('normalises what Channex answers: flags as 0/1, no maximum stay as null', async () => {
    const data = {
      rp: {
        '2027-01-01': { ...night, max_stay: null, closed_to_arrival: 1, closed_to_departure: 0, stop_sell: 0 },
        '2027-01-02': { ...night, stop_sell: 'yes', min_stay_arrival: 1.5 },
      },
    };
    const reads = channexAriReads(async () => ({ data }));
    const range = { date_from: '2027-01-01', date_to: '2027-01-02' };
    const { rate, min_stay_through, max_stay, closed_to_departure } = night;
    expect(await reads.readRestrictions({ apiKey: 'k', propertyId: 'p' }, range)).toEqual({
      rp: {
        '2027-01-01': { ...night, max_stay: 0, closed_to_arrival: true },
        '2027-01-02': { rate, min_stay_through, max_stay, closed_to_arrival: false, closed_to_departure },
      },
    });
  });
});

describe('reconciliation: the Channex reads', () => {
  let fake: FakeChannex;
  beforeAll(async () => {
    fake = await startFakeChannex();
  });
  afterAll(() => fake.close());

  it('reads back what the property holds over a range, an edit at the channel included', async () => {
    const control = fakeChannexControl(fake.url);
    const apiKey = `key-${randomUUID()}`;
    const property = await control.openProperty(randomUUID(), {
      api_key: apiKey,
      room_types: [{ title: 'Standard', rate_plans: [{ title: 'BAR' }] }],
    });
    const roomTypeId = property.room_types[0].id;
    const ratePlanId = property.room_types[0].rate_plans[0].id;
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(
      await control.editAtChannel(property.id, 'availability', [
        { room_type_id: roomTypeId, date_from: day(1), date_to: day(2), availability: 4 },
      ]),
    ).toEqual([]);
    await control.editAtChannel(property.id, 'restrictions', [
      { rate_plan_id: ratePlanId, date: day(2), rate: '120', stop_sell: true },
    ]);
    const refused = await control.editAtChannel(property.id, 'availability', [
      { room_type_id: 'no-such-room-type', date: day(1), availability: 1 },
    ]);
    expect(refused).toEqual([expect.objectContaining({ warning: 'room_type_id: not found' })]);
    // An edit at the channel is no API call.
    expect(await control.calls(property.id)).toEqual([]);

    const manager = createChannexManager({ baseUrl: fake.apiUrl });
    const credentials = { apiKey, propertyId: property.id };
    const range = { date_from: day(1), date_to: day(2) };
    expect(await manager.readAvailability(credentials, range)).toEqual({ [roomTypeId]: { [day(1)]: 4, [day(2)]: 4 } });
    expect(await manager.readRestrictions(credentials, range)).toEqual({
      [ratePlanId]: {
        [day(1)]: { ...night, rate: '0.00' },
        [day(2)]: { ...night, rate: '120.00', stop_sell: true },
      },
    });
    expect((await control.calls(property.id)).map((call) => [call.kind, call.status])).toEqual([
      ['availability_read', 200],
      ['restrictions_read', 200],
    ]);
  });

  it('sees the stop-sell Channex shows on a sold-out day (the fake’s option) as ours', async () => {
    const control = fakeChannexControl(fake.url);
    const apiKey = `key-${randomUUID()}`;
    const property = await control.openProperty(randomUUID(), {
      api_key: apiKey,
      room_types: [{ title: 'Standard', rate_plans: [{ title: 'BAR' }] }],
      sold_out_stop_sell: true,
    });
    const roomTypeId = property.room_types[0].id;
    const ratePlanId = property.room_types[0].rate_plans[0].id;
    const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await control.editAtChannel(property.id, 'restrictions', [{ rate_plan_id: ratePlanId, date: day, rate: '100' }]);
    const manager = createChannexManager({ baseUrl: fake.apiUrl });
    const credentials = { apiKey, propertyId: property.id };
    const range = { date_from: day, date_to: day };
    const held = {
      availability: await manager.readAvailability(credentials, range),
      restrictions: await manager.readRestrictions(credentials, range),
    };
    expect(held.restrictions[ratePlanId][day].stop_sell).toBe(true);
    const sent = { availability: { [roomTypeId]: { [day]: 0 } }, restrictions: { [ratePlanId]: { [day]: night } } };
    const mapped = {
      availability: [roomTypeId],
      restrictions: [ratePlanId],
      roomTypeOf: new Map([[ratePlanId, roomTypeId]]),
    };
    expect(heldDifferences([day], mapped, sent, held)).toEqual([]);
  });
});
