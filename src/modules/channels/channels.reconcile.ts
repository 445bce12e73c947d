import type { ChannelCredentials } from './channels.credentials';
import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import { RATE_FIELDS, type ChannelManager, type HeldAvailability, type HeldRestrictions } from './channels.manager';
import { connectionsRepository, pushedRepository } from './channels.repository';
import type { PushedState, Reconciliation, ReconciliationDifference } from './channels.types';

type Kind = keyof PushedState;

/** Differing item-days a reconciliation's record names (the count covers them all). */
export const RECONCILIATION_SAMPLES = 5;

/** Rates compared as amounts ("100", "100.0" and "100.00" are one); anything else as it is. */
function sameValue(field: string, sent: unknown, held: unknown): boolean {
  const amount = (value: unknown) => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN);
  if (field === 'rate' && !Number.isNaN(amount(sent))) return amount(sent) === amount(held);
  return sent === held;
}

const pick = (values: Record<string, unknown> | undefined, fields: string[]) =>
  Object.fromEntries(fields.filter((field) => values?.[field] !== undefined).map((field) => [field, values![field]]));

/**
 * The item-days where the channel holds other values than the ones we last sent it (`sent`, the pushed state), over
 * `dates`, for the room types and rate plans mapped now (`items`). Only days we sent are compared: a day never sent
 * (or refused) is pushed by the next push anyway. A day the channel does not answer differs. Each difference names
 * the fields that differ, with our value and the channel's.
 */
export function heldDifferences(
  dates: string[],
  items: Record<Kind, string[]>,
  sent: PushedState,
  held: { availability: HeldAvailability; restrictions: HeldRestrictions },
): ReconciliationDifference[] {
  const differences: ReconciliationDifference[] = [];
  const compare = (kind: Kind, fields: string[], valuesOf: (value: unknown) => Record<string, unknown>) => {
    for (const itemId of items[kind]) {
      const ours = sent[kind][itemId] ?? {};
      const theirs = (held[kind][itemId] ?? {}) as Record<string, unknown>;
      for (const date of dates) {
        if (ours[date] === undefined) continue;
        const sentValues = valuesOf(ours[date]);
        const heldValues = theirs[date] === undefined ? undefined : valuesOf(theirs[date]);
        const differing = fields.filter((field) => !sameValue(field, sentValues[field], heldValues?.[field]));
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

/**
 * A reconciliation (docs/decisions/channels.md): the channel's availability and restrictions over the window read
 * back and compared with what we last sent; then, in one transaction, the differing item-days dropped from what we
 * believe it holds, the reconciliation recorded on the connection under its request (a retry of the same request
 * finds it done) and, when something differed, the staff told. A read that fails leaves nothing written. Answers the
 * pushed state the push goes on from.
 */
export async function reconcileHeld(
  db: Db,
  parts: ReconcileParts,
  input: {
    hotelId: string;
    request: string;
    manager: ChannelManager;
    credentials: ChannelCredentials;
    dates: string[];
    items: Record<Kind, string[]>;
    sent: PushedState;
    signal?: AbortSignal;
  },
): Promise<PushedState> {
  const { hotelId, manager, credentials, dates } = input;
  const range = { date_from: dates[0], date_to: dates[dates.length - 1] };
  input.signal?.throwIfAborted();
  const availability = await manager.readAvailability(credentials, range);
  input.signal?.throwIfAborted();
  const restrictions = await manager.readRestrictions(credentials, range);
  input.signal?.throwIfAborted();
  const differences = heldDifferences(dates, input.items, input.sent, { availability, restrictions });
  const { state, rows } = withoutDifferences(input.sent, differences);
  const record: Reconciliation = {
    at: new Date().toISOString(),
    request: input.request,
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
