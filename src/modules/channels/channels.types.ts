import type { RateValues } from './channels.manager';

/** The channel managers a hotel can connect; each has its adapter behind the `ChannelManager` seam (`channels.manager.ts`; Channex: `channels.channex.ts`). */
export const CHANNEL_PROVIDERS = ['channex'] as const;
export type ChannelProvider = (typeof CHANNEL_PROVIDERS)[number];

export interface RoomTypeMapping {
  room_type_id: string;
  category_id: string;
}

export interface RatePlanInput {
  rate_plan_id: string;
  tariff_id: string;
}

/** A rate plan's mapping as kept: with the channel's room type it sells (from the channel's list). */
export interface RatePlanMapping extends RatePlanInput {
  room_type_id: string;
}

export interface ChannelMapping {
  room_types: RoomTypeMapping[];
  rate_plans: RatePlanMapping[];
}

export interface MappingInput {
  room_types: RoomTypeMapping[];
  rate_plans: RatePlanInput[];
}

export interface ConnectionInput extends MappingInput {
  provider: ChannelProvider;
  api_key: string;
  property_id: string;
}

export type ConnectionChanges = Partial<Omit<ConnectionInput, 'provider'>>;

export interface ConnectionRow extends ChannelMapping {
  id: string;
  hotel_id: string;
  provider: ChannelProvider;
  property_id: string;
  api_key_encrypted: string;
  api_key_hint: string;
  last_synced_at: Date | null;
  last_error: string | null;
  last_reconciliation: Reconciliation | null;
  created_at: Date;
  updated_at: Date;
}

/** An item-day the channel held otherwise than we sent it: the differing fields, ours and the channel's. */
export interface ReconciliationDifference {
  kind: keyof PushedState;
  item_id: string;
  date: string;
  sent: Record<string, unknown>;
  held: Record<string, unknown>;
}

/**
 * The last reconciliation (migration 119): when, how many item-days differed, the first few of them; `request` names
 * the activity that made it (a retry of it finds it done), never answered.
 */
export interface Reconciliation {
  at: string;
  request: string;
  differences: number;
  samples: ReconciliationDifference[];
  /** The channel failed or refused a read: nothing compared (the push went on without the check). */
  failed?: string;
}

/** A connection as the API answers it: the key never, only its last characters. */
export interface Connection extends ChannelMapping {
  id: string;
  provider: ChannelProvider;
  property_id: string;
  api_key_hint: string;
  last_synced_at: Date | null;
  last_error: string | null;
  last_reconciliation: Omit<Reconciliation, 'request'> | null;
  created_at: Date;
  updated_at: Date;
}

/** What was last pushed, per room type (rooms to sell) and rate plan (price and restrictions), by date. */
export interface PushedState {
  availability: Record<string, Record<string, number>>;
  restrictions: Record<string, Record<string, RateValues>>;
}
