export const BLOCK_STATUSES = ['inquiry', 'tentative', 'definite', 'cancelled'] as const;
/** The statuses that hold inventory: an inquiry holds nothing yet, a cancelled block nothing any more. */
export const HOLDING_STATUSES = ['tentative', 'definite'] as const;

export type BlockStatus = (typeof BLOCK_STATUSES)[number];

export const holds = (status: BlockStatus): boolean => (HOLDING_STATUSES as readonly string[]).includes(status);

/** A block spans at most this many nights (two years), in at most this many allotment items. */
export const MAX_BLOCK_NIGHTS = 731;
export const MAX_ALLOTMENT_ITEMS = 100;
/** At most this many guests in one pickup. */
export const MAX_PICKUP_GUESTS = 200;

/** Units of a category held on each night `from`..`to` (inclusive). */
export interface AllotmentItem {
  category_id: string;
  from: string;
  to: string;
  rooms: number;
}

/** When what was not picked up goes back on sale: never, at the start of a date, or N days before each night. */
export const RELEASE_KINDS = ['none', 'date', 'rolling'] as const;
export type ReleaseKind = (typeof RELEASE_KINDS)[number];

export interface BlockFields {
  name: string;
  company?: string | null;
  contact_name?: string | null;
  contact_phone?: string | null;
  contact_email?: string | null;
  status?: BlockStatus;
  tariff_id?: string | null;
  price_per_night?: string | null;
  release_kind?: ReleaseKind;
  release_date?: string | null;
  release_days?: number | null;
  notes?: string;
}

export type BlockInput = BlockFields & { allotment: AllotmentItem[] };
export type BlockChanges = Partial<BlockFields> & { allotment?: AllotmentItem[] };

export interface Block {
  id: string;
  hotel_id: string;
  name: string;
  company: string | null;
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  status: BlockStatus;
  tariff_id: string | null;
  price_per_night: string | null;
  release_kind: ReleaseKind;
  release_date: string | null;
  release_days: number | null;
  notes: string;
  created_by: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** One night of a category in a block: the units it holds now, what was released and washed, and what is picked up. */
export interface BlockNight {
  category_id: string;
  night: string;
  rooms: number;
  released: number;
  washed: number;
  picked_up: number;
}

/** A night's units to write. */
export type NightCount = Pick<BlockNight, 'category_id' | 'night' | 'rooms'>;

/** A booking of the block, as its answer lists it. */
export interface BlockBooking {
  id: string;
  category_id: string;
  room_id: string;
  check_in: string;
  check_out: string;
  status: string;
  guest_last_name: string;
  guest_first_name: string;
}

/** One guest of a pickup: a stay in a category of the block, in a room named or assigned. */
export interface PickupGuest {
  category_id: string;
  check_in: string;
  check_out: string;
  room_id?: string;
  guest_last_name: string;
  guest_first_name: string;
  guest_middle_name?: string | null;
  guest_phone?: string | null;
  guest_email?: string | null;
  guests_count?: number;
  notes?: string;
}
