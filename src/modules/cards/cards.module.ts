import { cardsFixtures } from './cards.fixtures';
import { defineModule } from '../../platform/modules';
import { CARD_ISSUANCE_REFUSED } from '../../../workflows/contracts/cards';
import { cardsActivities } from './cards.activities';
import { cardIssuanceUpdated } from './cards.events';
import { cardsRoutes } from './cards.routes';
import { createCardsService, type CardsDependencies } from './cards.service';

/** Door-lock cards written at the desk's encoder for a booking's rooms, and voided there. */
export const cardsModule = defineModule({
  name: 'cards',
  fixtures: cardsFixtures,
  uses: ['bookings', 'agents', 'lockvendor', 'hotels'],
  create: ({ db }, deps: CardsDependencies) => createCardsService(db, deps),
  routes: (cards) => cardsRoutes(cards),
  events: [cardIssuanceUpdated],
  activities: cardsActivities,
  refusals: { type: CARD_ISSUANCE_REFUSED, withCode: true },
});
