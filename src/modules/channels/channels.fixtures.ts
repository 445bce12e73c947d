import type { ModuleFixtures } from '../../platform/fixtures';

interface OpenedProperty {
  id: string;
  room_types: { id: string; rate_plans: { id: string }[] }[];
}

const route = (method: string) => `${method} /api/hotels/:slug/channel-connection`;
const fieldsOf = (field: string) => [`${route('POST')} ${field}`, `${route('PATCH')} ${field}`];

/** A mapping of the hotel's own records (by kind), as the seed made it. */
const mapping = (r: Readonly<Record<string, string>>) => ({
  property_id: r.channelProperty,
  room_types: [{ room_type_id: r.channelRoomType, category_id: r.category }],
  rate_plans: [{ rate_plan_id: r.channelRatePlan, tariff_id: r.tariff }],
});

const connectedAlready = 'the hotel is connected by its seed: its own connection request is a 409';

/**
 * The hotel connected to a property of its own at the stack's Channex (its room type mapped to the seeded category,
 * its rate plan to the seeded tariff). The channel's ids name the property's records there, only in these bodies.
 */
export const channelsFixtures: ModuleFixtures = {
  needs: ['category', 'tariff'],
  records: {
    channelProperty: { fields: fieldsOf('property_id') },
    channelRoomType: { fields: fieldsOf('room_types[].room_type_id') },
    channelRatePlan: { fields: fieldsOf('rate_plans[].rate_plan_id') },
  },
  requests: {
    body: {
      [route('POST')]: {
        base: (r) => ({ provider: 'channex', api_key: `${r.channelProperty}-key`, ...mapping(r) }),
        variants: Object.fromEntries(
          [
            'property_id',
            'room_types[].room_type_id',
            'room_types[].category_id',
            'rate_plans[].rate_plan_id',
            'rate_plans[].tariff_id',
          ].map((field) => [
            field,
            {
              build: (r: Readonly<Record<string, string>>) => ({
                provider: 'channex',
                api_key: `${r.channelProperty}-key`,
                ...mapping(r),
              }),
              uncontrolled: connectedAlready,
            },
          ]),
        ),
      },
      [route('PATCH')]: { base: mapping, control: true },
    },
  },
  async seed({ request, outside, canary, records }) {
    const propertyId = `${canary}-property`;
    const apiKey = `${propertyId}-key`;
    const property = (await outside.channex({
      id: propertyId,
      api_key: apiKey,
      title: `Hotel ${canary}`,
      room_types: [{ title: `Room type ${canary}`, rate_plans: [{ title: `Plan ${canary}` }] }],
    })) as OpenedProperty;
    const [roomType] = property.room_types;
    await request('/channel-connection', {
      body: {
        provider: 'channex',
        api_key: apiKey,
        property_id: property.id,
        room_types: [{ room_type_id: roomType.id, category_id: records.category }],
        rate_plans: [{ rate_plan_id: roomType.rate_plans[0].id, tariff_id: records.tariff }],
      },
    });
    return { channelProperty: property.id, channelRoomType: roomType.id, channelRatePlan: roomType.rate_plans[0].id };
  },
};
