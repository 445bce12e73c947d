export type { GuestsService } from './guests.service';
export { phone as guestPhoneSchema } from './guests.schemas';
export type { Guest, GuestInput, GuestMatchCriteria, GuestPatch, GuestRow } from './guests.types';
