import type { SourceActor } from './timeline.types';

/** A member of staff by id, or nobody known when the record keeps none. */
export const staff = (id: string | null | undefined): SourceActor | null => (id ? { type: 'staff', id } : null);
export const guest: SourceActor = { type: 'guest' };
export const job = (name: string): SourceActor => ({ type: 'system', name });
export const provider = (name: string): SourceActor => ({ type: 'provider', name });

/** The booking's durable workflow (`bookingLife`), which sends what reaches the outside after each status. */
export const BOOKING_WORKFLOW = job('bookingLife');
