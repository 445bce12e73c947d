import type { ChannelCredentials } from './channels.credentials';
import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import { channelFailure } from './channels.errors';
import {
  ChannelError,
  RATE_FIELDS,
  type ChannelManager,
  type DateRange,
  type HeldAvailability,
  type HeldRestrictions,
} from './channels.manager';
import { connectionsRepository, pushedRepository } from './channels.repository';
import type { PushedState, Reconciliation, ReconciliationDifference } from './channels.types';

type Kind = keyof PushedState;

/** Differing item-days a reconciliation's record names (the count covers them all). */
export const RECONCILIATION_SAMPLES = 5;

/**
 * Cells (item × day) one read asks for at most: Channex answers a property's every room type or rate plan (it has no
 * filter by id), and a call's answer is capped (about 10 MB); a property of 200 rate plans reads its year in 4 calls.
 */
export const READ_CELLS = 20_000;

/** Rates compared as amounts ("100", "100.0" and "100.00" are one); anything else as it is. */
function sameValue(field: string, sent: unknown, held: unknown): boolean {
  const amount = (value: unknown) => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN);
  if (field === 'rate' && !Number.isNaN(amount(sent))) return amount(sent) === amount(held);
  return sent === held;
}

const pick = (values: Record<string, unknown> | undefined, fields: string[]) =>
  Object.fromEntries(fields.filter((field) => values?.[field] !== undefined).map((field) => [field, values![field]]));

/** The room types and rate plans compared: those mapped now. */
export interface ReconcileItems extends Record<Kind, string[]> {
  /** The channel's room type each rate plan sells. */
  roomTypeOf: Map<string, string>;
}

/**
 * The item-days where the channel holds other values than the ones we last sent it (`sent`, the pushed state), over
 * `dates`, for `items`. Only days we sent are compared: a day never sent (or refused) is pushed by the next push
 * anyway. A day the channel does not answer differs. Each difference names the fields that differ, with our value and
 * the channel's. One tolerance: Channex answers `stop_sell: true` on a day its room type has no rooms to sell
 * (availability 0) though no stop-sell was pushed, so a held stop-sell on such a day equals our `false`.
 */
export function heldDifferences(
  dates: string[],
  items: ReconcileItems,
  sent: PushedState,
  held: { availability: HeldAvailability; restrictions: HeldRestrictions },
): ReconciliationDifference[] {
  const differences: ReconciliationDifference[] = [];
  const soldOut = (ratePlanId: string, date: string) =>
    held.availability[items.roomTypeOf.get(ratePlanId) ?? '']?.[date] === 0;
  const same = (itemId: string, date: string, field: string, ours: unknown, theirs: unknown) =>
    sameValue(field, ours, theirs) ||
    (field === 'stop_sell' && ours === false && theirs === true && soldOut(itemId, date));
  const compare = (kind: Kind, fields: string[], valuesOf: (value: unknown) => Record<string, unknown>) => {
    for (const itemId of items[kind]) {
      const ours = sent[kind][itemId] ?? {};
      const theirs = (held[kind][itemId] ?? {}) as Record<string, unknown>;
      for (const date of dates) {
        if (ours[date] === undefined) continue;
        const sentValues = valuesOf(ours[date]);
        const heldValues = theirs[date] === undefined ? undefined : valuesOf(theirs[date]);
        const differing = fields.filter((field) => !same(itemId, date, field, sentValues[field], heldValues?.[field]));
        if (differing.length > 0) {
          differences.push({
            kind,
            item_id: itemId,
            date,
            sent: pick(sentValues, differing),
            held: pick(heldValues, differing),
          });
        }
      }
    }
  };
  compare('availability', ['availability'], (count) => ({ availability: count }));
  compare('restrictions', [...RATE_FIELDS], (values) => values as Record<string, unknown>);
  return differences;
}

/**
 * What we believe the channel holds, less the differing item-days (the push then sends our current values for them,
 * as for any day it does not hold): the new state, and the rows it changed.
 */
export function withoutDifferences(sent: PushedState, differences: ReconciliationDifference[]) {
  const state: PushedState = {
    availability: { ...sent.availability },
    restrictions: { ...sent.restrictions },
  };
  const changed = new Map<string, { kind: Kind; item_id: string; dates: Record<string, unknown> }>();
  for (const { kind, item_id: itemId, date } of differences) {
    const key = `${kind} ${itemId}`;
    const row = changed.get(key) ?? { kind, item_id: itemId, dates: { ...sent[kind][itemId] } };
    delete row.dates[date];
    changed.set(key, row);
    (state[kind] as Record<string, Record<string, unknown>>)[itemId] = row.dates;
  }
  return { state, rows: [...changed.values()] };
}

export interface ReconcileParts {
  /** Tells the hotel's staff what the reconciliation found (in its transaction). */
  mismatch(trx: Knex.Transaction, hotelId: string, record: Reconciliation): Promise<void>;
}

interface ReconcileInput {
  hotelId: string;
  request: string;
  manager: ChannelManager;
  credentials: ChannelCredentials;
  dates: string[];
  items: ReconcileItems;
  sent: PushedState;
  signal?: AbortSignal;
}

/**
 * `read` over `dates` (consecutive) in calls of at most READ_CELLS cells: as many days a call as fit the items the
 * answers named so far (at least `expected`, the items mapped), the answers merged.
 */
async function readInChunks<T>(
  read: (range: DateRange) => Promise<Record<string, Record<string, T>>>,
  dates: string[],
  expected: number,
  signal?: AbortSignal,
): Promise<Record<string, Record<string, T>>> {
  const held: Record<string, Record<string, T>> = {};
  let width = Math.max(1, expected);
  for (let start = 0; start < dates.length;) {
    const chunk = dates.slice(start, start + Math.max(1, Math.floor(READ_CELLS / width)));
    signal?.throwIfAborted();
    const answer = await read({ date_from: chunk[0], date_to: chunk[chunk.length - 1] });
    for (const [id, byDate] of Object.entries(answer)) held[id] = { ...held[id], ...byDate };
    width = Math.max(width, Object.keys(answer).length);
    start += chunk.length;
  }
  return held;
}

/** What the channel holds for `items`: restrictions read only when a rate plan is compared (availability then too). */
export async function readHeld(input: ReconcileInput, items: ReconcileItems) {
  const { manager, credentials, dates, signal } = input;
  const ratePlans = items.restrictions.length > 0;
  const availability =
    items.availability.length > 0 || ratePlans
      ? await readInChunks(
          (range) => manager.readAvailability(credentials, range),
          dates,
          input.items.availability.length,
          signal,
        )
      : {};
  const restrictions = ratePlans
    ? await readInChunks(
        (range) => manager.readRestrictions(credentials, range),
        dates,
        input.items.restrictions.length,
        signal,
      )
    : {};
  signal?.throwIfAborted();
  return { availability, restrictions };
}

/**
 * The differences a second read, over their items and days only, still finds (with the channel's values it answers):
 * Channex applies a push asynchronously, so a read soon after one (a reconciliation merged into a change's push) may
 * answer values it is still replacing; an item-day counts only when both reads find it differing.
 */
async function confirmed(input: ReconcileInput, first: ReconciliationDifference[]) {
  const key = (item: ReconciliationDifference) => `${item.kind} ${item.item_id} ${item.date}`;
  const keys = new Set(first.map(key));
  const days = first.map((item) => item.date).sort();
  const dates = input.dates.filter((date) => date >= days[0] && date <= days[days.length - 1]);
  const ids = (kind: Kind) => [...new Set(first.filter((item) => item.kind === kind).map((item) => item.item_id))];
  const items = { ...input.items, availability: ids('availability'), restrictions: ids('restrictions') };
  const again = heldDifferences(dates, items, input.sent, await readHeld({ ...input, dates }, items));
  return again.filter((item) => keys.has(key(item)));
}

/**
 * A reconciliation (docs/decisions/channels.md): the channel's availability and restrictions over the window read
 * back (in chunks) and compared with what we last sent, the differing item-days read once more (`confirmed`); then, in one transaction, the differing item-days dropped from what we believe it holds, the
 * reconciliation recorded on the connection under its request (a retry of the same request finds it done) and, when
 * something differed, the staff told. Best-effort: a read the channel fails or refuses is recorded as the check's
 * `failed` (nothing else written) and the push goes on as without it. Answers the pushed state the push goes on from.
 */
export async function reconcileHeld(db: Db, parts: ReconcileParts, input: ReconcileInput): Promise<PushedState> {
  const { hotelId, request } = input;
  let differences: ReconciliationDifference[];
  try {
    differences = heldDifferences(input.dates, input.items, input.sent, await readHeld(input, input.items));
    if (differences.length > 0) differences = await confirmed(input, differences);
  } catch (error) {
    if (!(error instanceof ChannelError)) throw error;
    const failed = channelFailure(error, 'connection').message;
    const record = { at: new Date().toISOString(), request, differences: 0, samples: [], failed };
    await connectionsRepository.recordReconciliation(db, hotelId, record);
    return input.sent;
  }
  const { state, rows } = withoutDifferences(input.sent, differences);
  const record: Reconciliation = {
    at: new Date().toISOString(),
    request,
    differences: differences.length,
    samples: differences.slice(0, RECONCILIATION_SAMPLES),
  };
  await db.transaction(async (trx) => {
    await pushedRepository.set(trx, hotelId, rows);
    await connectionsRepository.recordReconciliation(trx, hotelId, record);
    if (differences.length > 0) await parts.mismatch(trx, hotelId, record);
  });
  return state;
}

/** The staff's notice of a reconciliation that found differences: how many, and the first ones. */
export function reconciliationSummary(record: Pick<Reconciliation, 'differences' | 'samples'>): string {
  const lines = record.samples.map(
    (item) =>
      `${item.date} ${item.item_id}: отправлено ${JSON.stringify(item.sent)}, у канала ${JSON.stringify(item.held)}`,
  );
  return [`Расхождений (день × тип номера или тариф): ${record.differences}.`, ...lines].join('\n').slice(0, 2000);
}
