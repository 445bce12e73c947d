import { hotelTable } from '../../platform/db/hotel-table';
import type { DbOrTrx } from '../../platform/db/knex';
import type { CardIssuance } from './cards.types';

type CardChange = Partial<Pick<CardIssuance, 'card_number' | 'error_code' | 'error_message' | 'cancelled_by'>> & {
  status: CardIssuance['status'];
};

export const cardsRepository = {
  ...hotelTable<CardIssuance, Partial<CardIssuance>>('card_issuances'),

  async forBooking(db: DbOrTrx, hotelId: string, bookingId: string): Promise<CardIssuance[]> {
    return db<CardIssuance>('card_issuances')
      .where({ hotel_id: hotelId, booking_id: bookingId })
      .orderBy('created_at', 'desc')
      .limit(200);
  },

  /** Moves an issuance on from `from` only: a redelivered outcome finds it moved already and changes nothing. */
  async settle(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    from: CardIssuance['status'],
    change: CardChange,
  ): Promise<CardIssuance | undefined> {
    const [row] = await db('card_issuances')
      .where({ hotel_id: hotelId, id, status: from })
      .update({
        ...change,
        ...(change.status === 'cancelled' ? { cancelled_at: db.fn.now() } : {}),
        updated_at: db.fn.now(),
      })
      .returning('*');
    return row as CardIssuance | undefined;
  },
};
