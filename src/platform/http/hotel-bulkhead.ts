import { ServiceUnavailableError } from '../errors';

export interface HotelBulkheadOptions {
  /** Requests of one hotel allowed in their handlers at once (in this process). */
  maxConcurrent: number;
  /** How long a further request of that hotel waits for its turn before it is refused with 503. */
  queueTimeoutMs: number;
}

export interface HotelBulkhead {
  run<T>(hotelId: string, work: () => Promise<T>): Promise<T>;
}

interface Lane {
  running: number;
  /** In arrival order (a Set keeps insertion order and drops a waiter that gave up in O(1)). */
  waiting: Set<() => void>;
}

/**
 * A bulkhead per hotel: requests of a hotel that wait on a held lock each keep a pool connection, so without a bound
 * one hotel's stuck requests take the whole pool and every other hotel waits behind them. With at most
 * `maxConcurrent` per hotel (about half the pool), the rest of the pool stays free for the others.
 */
export function createHotelBulkhead({ maxConcurrent, queueTimeoutMs }: HotelBulkheadOptions): HotelBulkhead {
  const lanes = new Map<string, Lane>();

  function enter(hotelId: string): Promise<void> {
    let lane = lanes.get(hotelId);
    if (!lane) {
      lane = { running: 0, waiting: new Set() };
      lanes.set(hotelId, lane);
    }
    if (lane.running < maxConcurrent) {
      lane.running++;
      return Promise.resolve();
    }
    const queue = lane.waiting;
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        queue.delete(admit);
        reject(
          new ServiceUnavailableError(
            'hotel_busy',
            'Слишком много одновременных запросов этой гостиницы. Повторите запрос через несколько секунд.',
          ),
        );
      }, queueTimeoutMs);
      queue.add(admit);
    });
  }

  function leave(hotelId: string): void {
    const lane = lanes.get(hotelId)!;
    const [next] = lane.waiting;
    if (next) {
      // The place passes straight to the next request in line: `running` stays the same.
      lane.waiting.delete(next);
      next();
    } else if (--lane.running === 0) {
      lanes.delete(hotelId);
    }
  }

  return {
    async run(hotelId, work) {
      await enter(hotelId);
      try {
        return await work();
      } finally {
        leave(hotelId);
      }
    },
  };
}
