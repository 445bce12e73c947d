import { randomUUID } from 'node:crypto';
import { createChannexManager } from '../../src/modules/channels/channels.channex';
import { heldDifferences, withoutDifferences } from '../../src/modules/channels/channels.reconcile';
import type { RateValues } from '../../src/modules/channels/channels.manager';
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
const items = { availability: ['rt'], restrictions: ['rp'] };

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
    const unmapped = { availability: [], restrictions: [] };
    expect(heldDifferences(dates, unmapped, sent, held)).toEqual([]);
    expect(heldDifferences(['2027-01-03'], items, sent, held)).toEqual([]);
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
});
