import { inHouse, type Booking } from '../bookings';
import type { OrderStatus } from './roomservice.types';

/**
 * An order's life: new -> accepted -> preparing -> delivered, each step in turn (the kitchen confirms before it cooks,
 * and what is delivered is billed), or cancelled from any open step; a delivered order may be refunded (its bill line
 * met by a negative one). cancelled and refunded are final.
 */
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  new: ['accepted', 'cancelled'],
  accepted: ['preparing', 'cancelled'],
  preparing: ['delivered', 'cancelled'],
  delivered: ['refunded'],
  cancelled: [],
  refunded: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

/**
 * The stay a guest proved, read again in the order's transaction, may still order: in house now and still in the room
 * proven (a check-out or a room move committed after the proof refuses the order).
 */
export function stillProven(
  booking: Pick<Booking, 'status' | 'start_at' | 'end_at' | 'checked_in_at' | 'room_id'>,
  roomId: string,
  now: Date,
): boolean {
  return inHouse(booking, now) && booking.room_id === roomId;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Whether the hours take orders at the local time `at` (`HH:MM`): from opening up to (not at) closing; equal ends are
 * around the clock, and a closing time before the opening one runs past midnight (22:00-02:00).
 */
export function isOpenAt(opensAt: string, closesAt: string, at: string): boolean {
  const [open, close, now] = [minutesOf(opensAt), minutesOf(closesAt), minutesOf(at)];
  if (open === close) return true;
  return open < close ? open <= now && now < close : now >= open || now < close;
}

/** The wall-clock time `HH:MM` at `instant` in the hotel's time zone. */
export function localTime(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    instant,
  );
}

/** Room numbers as a guest types them: "101", " 101 " and "a12"/"A12" are one room. */
export const roomKey = (room: string) => room.trim().toLowerCase();
