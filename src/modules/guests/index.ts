export {
  canSeeDocuments,
  createGuest,
  createGuestsService,
  DOCUMENT_ROLES,
  findGuestMatch,
  guestMessages,
  isBlacklisted,
  normalizePhone,
  presentGuest,
  reencryptGuestDocuments,
  type GuestsService,
} from './guests.service';
export { guestsRoutes } from './guests.routes';
export { guestsRepository } from './guests.repository';
export { createGuestBody as guestInputSchema } from './guests.schemas';
export type { Guest, GuestInput, GuestMatchCriteria, GuestPatch, GuestRow } from './guests.types';
export { phone as guestPhoneSchema } from './guests.schemas';
