import type { DbOrTrx } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import type { RentalBookingInput } from '../rentals';
import type { WidgetSettings } from './widget.types';

/** A rental booking as the widget takes it: the rental's fields and the consent's version. */
export type WidgetRentalInput = RentalBookingInput & { consent_version?: string };

export const consentMessages = {
  outdated: 'Текст согласия на обработку персональных данных изменился: обновите страницу и примите его снова',
};

/**
 * The consent a submission gives (152-FZ art. 9): to the text the hotel's widget shows now. A version sent along must
 * be that one (a page opened before the text changed is refused, 409); without one, the current text is the one shown.
 */
export const CONSENT_OUTDATED = 'consent_outdated';

export function consentTo(settings: WidgetSettings, sent: string | undefined): string {
  if (sent !== undefined && sent !== settings.consent_text_version)
    throw new ConflictError(consentMessages.outdated, CONSENT_OUTDATED);
  return settings.consent_text_version;
}

export const consentsRepository = {
  /** Records the consent with its booking, once (a replayed submission records nothing more). */
  async record(
    db: DbOrTrx,
    hotelId: string,
    subject: { booking_id: string } | { rental_booking_id: string },
    version: string,
  ): Promise<void> {
    const column = 'booking_id' in subject ? 'booking_id' : 'rental_booking_id';
    await db('personal_data_consents')
      .insert({ hotel_id: hotelId, ...subject, text_version: version })
      .onConflict(column)
      .ignore();
  },
};
