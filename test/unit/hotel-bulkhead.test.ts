import { ServiceUnavailableError } from '../../src/platform/errors';
import { createHotelBulkhead, type HotelBulkhead } from '../../src/platform/http/hotel-bulkhead';

/** Lets every promise that can settle now settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Handlers that run until the test finishes them, recording the order in which they started. */
function handlers(bulkhead: HotelBulkhead) {
  const started: string[] = [];
  const finishers = new Map<string, (outcome?: Error) => void>();
  const start = (hotelId: string, name: string) =>
    bulkhead.run(hotelId, () => {
      started.push(name);
      return new Promise<string>((resolve, reject) => {
        finishers.set(name, (error) => (error ? reject(error) : resolve(name)));
      });
    });
  const finish = (name: string, error?: Error) => finishers.get(name)!(error);
  return { started, start, finish };
}

describe('hotel bulkhead', () => {
  it("runs at most maxConcurrent requests of a hotel, the waiting ones in arrival order, other hotels' at once", async () => {
    const { started, start, finish } = handlers(createHotelBulkhead({ maxConcurrent: 2, queueTimeoutMs: 60_000 }));
    const outcomes = Promise.allSettled([
      ...['a1', 'a2', 'a3', 'a4'].map((name) => start('A', name)),
      start('B', 'b1'),
    ]);
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1']);

    finish('a2');
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    // A handler that fails frees its place too.
    finish('a1', new Error('refused'));
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);

    finish('a3');
    finish('a4');
    finish('b1');
    expect(await outcomes).toEqual([
      { status: 'rejected', reason: new Error('refused') },
      { status: 'fulfilled', value: 'a2' },
      { status: 'fulfilled', value: 'a3' },
      { status: 'fulfilled', value: 'a4' },
      { status: 'fulfilled', value: 'b1' },
    ]);
  });

  it('refuses a request that waited past the queue timeout with 503 hotel_busy, without running it', async () => {
    const { started, start, finish } = handlers(createHotelBulkhead({ maxConcurrent: 1, queueTimeoutMs: 20 }));
    const first = start('A', 'a1');
    const refused = await start('A', 'a2').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect(refused).toMatchObject({ status: 503, code: 'hotel_busy', retryAfterSeconds: 1 });

    finish('a1');
    await first;
    const next = start('A', 'a3');
    await settle();
    finish('a3');
    expect(await next).toBe('a3');
    expect(started).toEqual(['a1', 'a3']);
  });
});
