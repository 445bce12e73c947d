import { MODULES } from '../../src/modules/registry';
import type { ModuleFixtures } from '../../src/platform/fixtures';
import { defineModule, type AnyModule } from '../../src/platform/modules';
import { requestTemplates } from '../gates/cross-hotel-requests';
import { recordAddresses, seedOrder } from '../gates/tenant-fixture';

/**
 * The gates' fixture is built from the modules' `fixtures` declarations: every record kind is seeded by some module,
 * each seed runs after those of the kinds it needs, and a module plugged in brings its own records and addresses.
 */

const dummy = (name: string, fixtures: ModuleFixtures) =>
  defineModule({ name, uses: [], create: () => ({}), fixtures });
const seed = async () => ({});

describe("the registry's fixtures", () => {
  it('seed every record kind a module declares, each module after those seeding what it needs', () => {
    const order = seedOrder(MODULES);
    const seeding = (kind: string) =>
      MODULES.find((module) => module.fixtures?.seed && kind in module.fixtures.records);
    const { kinds } = recordAddresses();
    expect(kinds.filter((kind) => !seeding(kind))).toEqual([]);
    const late = order.flatMap((module, index) =>
      (module.fixtures?.needs ?? [])
        .filter((kind) => order.indexOf(seeding(kind)!) >= index)
        .map((kind) => `${module.name} seeds before ${kind}`),
    );
    expect(late).toEqual([]);
    // One of each record the cross-hotel gate aims at, as the hand-written fixture had.
    expect(kinds.length).toBeGreaterThanOrEqual(39);
  });

  it("address the registry's records by path prefix and field", () => {
    const { paths, fields } = recordAddresses();
    expect(paths['/api/hotels/:slug/users/:id']).toEqual(['staff', 'owner']);
    expect(paths['/api/hotels/:slug/bookings/:id/guests/:guestId']).toEqual(['guest']);
    expect(fields.room_id).toBe('room');
    expect(fields['POST /api/hotels/:slug/room-service/orders booking_id']).toBe('roomServiceStay');
  });
});

describe('a module plugged in', () => {
  it('brings its records and where requests name them, its seed after the kinds it needs', () => {
    const postcards = dummy('postcards', {
      needs: ['room'],
      records: { postcard: { paths: ['/api/hotels/:slug/postcards/:postcardId'], fields: ['postcard_id'] } },
      seed,
    });
    const modules: readonly AnyModule[] = [postcards, ...MODULES];
    const addresses = recordAddresses(modules);
    expect(addresses.paths['/api/hotels/:slug/postcards/:postcardId']).toEqual(['postcard']);
    expect(addresses.fields.postcard_id).toBe('postcard');
    const order = seedOrder(modules).map((module) => module.name);
    expect(order.indexOf('postcards')).toBeGreaterThan(order.indexOf('rooms'));
  });

  it('is refused when it needs a kind nobody seeds, when seeds need each other, or a field names two kinds', () => {
    expect(() => seedOrder([dummy('lost', { needs: ['nothing'], records: {}, seed })])).toThrow(
      "module lost's fixtures need nothing, which no module declares",
    );
    const hen = dummy('hen', { needs: ['egg'], records: { hen: {} }, seed });
    const egg = dummy('egg', { needs: ['hen'], records: { egg: {} }, seed });
    expect(() => seedOrder([hen, egg])).toThrow('fixtures need each other: hen → egg → hen');
    const twin = dummy('twin', { records: { twin: { fields: ['room_id'] } } });
    expect(() => recordAddresses([...MODULES, twin])).toThrow('field room_id names both room and twin');
  });

  it('brings the bodies of its routes the sweep cannot derive; a route given two is refused', () => {
    const key = 'POST /api/hotels/:slug/postcards';
    const template = { base: (own: Readonly<Record<string, string>>) => ({ room_id: own.room }) };
    const postcards = dummy('postcards', { records: {}, requests: { body: { [key]: template } } });
    expect(requestTemplates([...MODULES, postcards]).body[key]).toBe(template);
    expect(requestTemplates().body['POST /api/hotels/:slug/bookings']).toBeDefined();
    expect(() => requestTemplates([postcards, postcards])).toThrow(`two body templates for ${key}`);
  });
});
