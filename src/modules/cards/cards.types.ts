export const CARD_STATUSES = ['pending', 'written', 'failed', 'cancelled'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

export interface CardIssuance {
  id: string;
  hotel_id: string;
  booking_id: string;
  workstation_id: string | null;
  room_ids: string[];
  sectors: number[];
  valid_from: Date;
  valid_until: Date;
  status: CardStatus;
  card_number: string | null;
  error_code: string | null;
  error_message: string | null;
  issued_by: string | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface IssueCardInput {
  booking_id: string;
  workstation_id: string;
  /** Card sectors the locks read (circles 1 to 16). */
  sectors: number[];
  /** The booking's room unless given (a family taking two rooms on one card). */
  room_ids?: string[];
  /** The stay's end unless given (earlier, never later). */
  valid_until?: Date;
}

/** The lock on a room's door, as the encoder writes it to a card. */
export interface DoorLock {
  room_id: string;
  lock_mac: string;
  build_no: number | null;
  floor_no: number | null;
}
