import type { Db } from '../../platform/db/knex';
import { addDays } from '../../platform/dates';
import type { ChannelPushResult } from '../../../workflows/contracts/channels';
import type { Ari } from './channels.ari';
import { fromChannel } from './channels.errors';
import type { AvailabilityValue, ChannelCredentials, ChannelManager, RestrictionValue } from './channels.manager';
import { changedDays, rangesOf } from './channels.ranges';
import { connectionsRepository, pushedRepository } from './channels.repository';
import type { ChannelMapping, PushedState } from './channels.types';

const nextDay = (date: string) => addDays(date, 1);
const sameNumber = (a: number, b: number) => a === b;
const sameText = (a: string, b: string) => a === b;

/** Per key, the window's values by date (what is kept as last pushed). */
function byDate<V>(dates: string[], values: Map<string, V[]>): Record<string, Record<string, V>> {
  return Object.fromEntries(
    [...values].map(([key, list]) => [key, Object.fromEntries(dates.map((date, index) => [date, list[index]]))]),
  );
}

export interface SyncParts {
  readAri(hotelId: string, mapping: ChannelMapping): Promise<Ari>;
  session(row: { provider: 'channex'; property_id: string; api_key_encrypted: string }): {
    manager: ChannelManager;
    credentials: ChannelCredentials;
  };
}

/**
 * One push: the window read afresh; per room type and rate plan the days that differ from what the channel was last
 * sent (every day when `full`), in ranges of equal consecutive days; one availability call, then one restrictions
 * call (in that order, Channex applies them in order). Each part is remembered as pushed once the channel took it,
 * so a retry after a failed second call does not send the first again.
 */
export function createChannelPush(db: Db, parts: SyncParts) {
  return async function push(hotelId: string, full: boolean): Promise<ChannelPushResult> {
    const row = await connectionsRepository.find(db, hotelId);
    if (!row) return { status: 'gone', calls: 0 };
    const { manager, credentials } = parts.session(row);
    const ari = await parts.readAri(hotelId, row);
    const before = full ? undefined : await pushedRepository.get(db, hotelId);
    const rateTexts = new Map([...ari.rates].map(([id, list]) => [id, list.map((values) => JSON.stringify(values))]));

    const availability: AvailabilityValue[] = [...ari.availability].flatMap(([roomTypeId, counts]) =>
      rangesOf(changedDays(ari.dates, counts, before?.availability[roomTypeId], sameNumber), sameNumber, nextDay).map(
        ({ value, ...range }) => ({ room_type_id: roomTypeId, ...range, availability: value }),
      ),
    );
    const restrictions: RestrictionValue[] = [...rateTexts].flatMap(([ratePlanId, texts]) =>
      rangesOf(changedDays(ari.dates, texts, before?.restrictions[ratePlanId], sameText), sameText, nextDay).map(
        ({ value, ...range }) => ({ rate_plan_id: ratePlanId, ...range, ...JSON.parse(value) }),
      ),
    );

    const state: PushedState = {
      availability: byDate(ari.dates, ari.availability),
      restrictions: before?.restrictions ?? {},
    };
    let calls = 0;
    const warnings: unknown[] = [];
    try {
      if (availability.length > 0) {
        warnings.push(...(await fromChannel(() => manager.pushAvailability(credentials, availability))).warnings);
        calls += 1;
      }
      await pushedRepository.set(db, hotelId, state);
      if (restrictions.length > 0) {
        warnings.push(...(await fromChannel(() => manager.pushRestrictions(credentials, restrictions))).warnings);
        calls += 1;
      }
      await pushedRepository.set(db, hotelId, { ...state, restrictions: byDate(ari.dates, rateTexts) });
    } catch (error) {
      await connectionsRepository.recordSync(db, hotelId, { synced: false, error: (error as Error).message });
      throw error;
    }
    // Values the channel refused under a 200 are not retried (the next full sync sends them again): staff see them.
    const refused = warnings.length > 0 ? `${warnings.length} value(s) refused: ${JSON.stringify(warnings[0])}` : null;
    await connectionsRepository.recordSync(db, hotelId, { synced: true, error: refused });
    return { status: 'connected', calls };
  };
}
