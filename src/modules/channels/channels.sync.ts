import type { ChannelCredentials } from './channels.credentials';
import type { Db } from '../../platform/db/knex';
import { addDays } from '../../platform/dates';
import type { ChannelPushResult } from '../../../workflows/contracts/channels';
import type { Ari } from './channels.ari';
import { channelFailure } from './channels.errors';
import {
  ChannelError,
  RATE_FIELDS,
  type AvailabilityValue,
  type ChannelManager,
  type PushResult,
  type RateValues,
  type RestrictionValue,
} from './channels.manager';
import { changedDays, rangesOf } from './channels.ranges';
import { reconcileHeld, type ReconcileParts } from './channels.reconcile';
import { connectionsRepository, pushedRepository } from './channels.repository';
import { refusedDays, refusedSummary } from './channels.refusals';
import type { ChannelMapping, PushedState } from './channels.types';

const nextDay = (date: string) => addDays(date, 1);
const sameNumber = (a: number, b: number) => a === b;
const sameRate = (a: RateValues, b: RateValues) => RATE_FIELDS.every((field) => a[field] === b[field]);

type Kind = keyof PushedState;
/** A room type's or rate plan's values the channel now holds, by date; `unchanged`: as stored already. */
interface Taken {
  kind: Kind;
  item_id: string;
  dates: Record<string, unknown>;
  unchanged: boolean;
}

/** A push: `full` sends every value; `reconcile` first compares what the channel holds (`request`: its activity). */
export interface PushRequest {
  full: boolean;
  reconcile?: { request: string };
}

export interface SyncParts extends ReconcileParts {
  readAri(hotelId: string, mapping: ChannelMapping): Promise<Ari>;
  session(row: { provider: 'channex'; property_id: string; api_key_encrypted: string }): {
    manager: ChannelManager;
    credentials: ChannelCredentials;
  };
  /** Tells the hotel's staff the channel refused a push for good (the key, the property, the request). */
  refused(hotelId: string, reason: string): Promise<void>;
}

/** Per kind, the values of the keys a call sent, by date, less the days the channel refused: what it now holds. */
function taken<V>(
  kind: Kind,
  dates: string[],
  sent: Map<string, V[]>,
  before: Record<string, Record<string, V>>,
  refused: Set<string>,
  same: (a: V, b: V) => boolean,
): Taken[] {
  return [...sent].map(([id, list]) => {
    const map: Record<string, V> = {};
    dates.forEach((date, index) => {
      if (!refused.has(`${id} ${date}`)) map[date] = list[index];
    });
    const was = before[id] ?? {};
    const unchanged =
      Object.keys(was).length === Object.keys(map).length &&
      Object.entries(map).every(([date, value]) => was[date] !== undefined && same(was[date], value));
    return { kind, item_id: id, dates: map, unchanged };
  });
}

/**
 * One push: the inventory version read, then the window; per room type and rate plan the days that differ from what
 * the channel holds (every day when `full`), in ranges of equal consecutive days; one availability call, then one
 * restrictions call (in that order, Channex applies them in order). What the channel took is written once, at the
 * end (or, when the second call fails, what the first took), only the rows that changed; days it refused under a
 * 200 (its warnings) are not kept as taken, so every later push sends them again, and the connection's `last_error`
 * names them until a push of them succeeds. A refusal for good (a wrong key, an unknown property, a 4xx) is recorded
 * on the connection and told to staff, and the push ends without failing (later pushes go on). `stale`: the version
 * moved while this push ran (a change it may have missed, whose wake may have been coalesced): push again. A push
 * that reconciles first reads back what the channel holds (`channels.reconcile.ts`): the days it holds otherwise than
 * we sent are dropped from what we believe it holds, so this push sends them again; a read the channel fails or
 * refuses is recorded on the reconciliation and the push goes on (the check is best-effort: it never holds back the
 * changes merged into its push). A full push skips the check (it rewrites every value).
 */
export function createChannelPush(db: Db, parts: SyncParts) {
  return async function push(hotelId: string, request: PushRequest, signal?: AbortSignal): Promise<ChannelPushResult> {
    const row = await connectionsRepository.find(db, hotelId);
    if (!row) return { status: 'gone', calls: 0 };
    const { manager, credentials } = parts.session(row);
    const version = await pushedRepository.inventoryVersion(db, hotelId);
    const ari = await parts.readAri(hotelId, row);
    let before = await pushedRepository.get(db, hotelId);

    let calls = 0;
    const warnings: unknown[] = [];
    const rows: Taken[][] = [];
    /** A failure: what was taken kept, the error recorded; retried (thrown) unless the channel refused for good. */
    const failed = async (error: unknown): Promise<ChannelPushResult> => {
      await keep(hotelId, rows);
      const failure = error instanceof ChannelError ? channelFailure(error) : (error as Error);
      await connectionsRepository.recordSync(db, hotelId, { synced: false, error: failure.message });
      if (!(error instanceof ChannelError) || error.retryable) throw failure;
      await parts.refused(hotelId, failure.message);
      return { status: 'refused', calls, stale: false, nextDayAt: ari.nextDayAt };
    };

    const reconcile = request.reconcile;
    // A full push rewrites every value: nothing to compare first.
    if (reconcile && !request.full && row.last_reconciliation?.request !== reconcile.request) {
      before = await reconcileHeld(db, parts, {
        hotelId,
        request: reconcile.request,
        manager,
        credentials,
        dates: ari.dates,
        items: {
          availability: [...ari.availability.keys()],
          restrictions: [...ari.rates.keys()],
          roomTypeOf: new Map(row.rate_plans.map((plan) => [plan.rate_plan_id, plan.room_type_id])),
        },
        sent: before,
        signal,
      });
    }
    const known = request.full ? { availability: {}, restrictions: {} } : before;

    const availability: AvailabilityValue[] = [...ari.availability].flatMap(([roomTypeId, counts]) =>
      rangesOf(changedDays(ari.dates, counts, known.availability[roomTypeId], sameNumber), sameNumber, nextDay).map(
        ({ value, ...range }) => ({ room_type_id: roomTypeId, ...range, availability: value }),
      ),
    );
    const restrictions: RestrictionValue[] = [...ari.rates].flatMap(([ratePlanId, list]) =>
      rangesOf(changedDays(ari.dates, list, known.restrictions[ratePlanId], sameRate), sameRate, nextDay).map(
        ({ value, ...range }) => ({ rate_plan_id: ratePlanId, ...range, ...value }),
      ),
    );

    const send = async <V>(
      kind: Kind,
      values: object[],
      sent: Map<string, V[]>,
      same: (a: V, b: V) => boolean,
      call: () => Promise<PushResult>,
    ) => {
      signal?.throwIfAborted();
      const refused = values.length > 0 ? (await call()).warnings : [];
      if (values.length > 0) calls += 1;
      warnings.push(...refused);
      const idField = kind === 'availability' ? 'room_type_id' : 'rate_plan_id';
      const days = refusedDays(refused, idField);
      rows.push(taken(kind, ari.dates, sent, before[kind] as Record<string, Record<string, V>>, days, same));
    };
    try {
      await send('availability', availability, ari.availability, sameNumber, () =>
        manager.pushAvailability(credentials, availability),
      );
      await send('restrictions', restrictions, ari.rates, sameRate, () =>
        manager.pushRestrictions(credentials, restrictions),
      );
    } catch (error) {
      return failed(error);
    }
    await keep(hotelId, rows);
    await connectionsRepository.recordSync(db, hotelId, { synced: true, error: refusedSummary(warnings) });
    const stale = (await pushedRepository.inventoryVersion(db, hotelId)) !== version;
    return { status: 'connected', calls, stale, nextDayAt: ari.nextDayAt };
  };

  /** Writes what the channel took: once per push, only the rows that changed. */
  async function keep(hotelId: string, rows: Taken[][]) {
    const changed = rows.flat().filter((item) => !item.unchanged);
    await pushedRepository.set(
      db,
      hotelId,
      changed.map(({ kind, item_id, dates }) => ({ kind, item_id, dates })),
    );
  }
}
