import type { CardIssuanceActivities } from '../../../workflows/contracts/cards';
import type { CardsService } from './cards.service';

/** The card issuance workflow's activities: thin calls into the service, whose refusals are recorded as they are. */
export function cardsActivities(cards: CardsService): CardIssuanceActivities {
  return {
    prepareCardWrite: (hotelId, issuanceId) => cards.prepareWrite(hotelId, issuanceId),
    recordCardWritten: (hotelId, issuanceId, cardNumber) => cards.recordWritten(hotelId, issuanceId, cardNumber),
    recordCardFailed: (hotelId, issuanceId, refusal) => cards.recordFailed(hotelId, issuanceId, refusal),
  };
}
