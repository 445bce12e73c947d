import { ConflictError, ValidationError } from '../../platform/errors';
import type { BookingsService } from '../bookings';
import type { WidgetBookingInput } from './widget.types';

export const splitMessages = {
  notContiguous: 'Ночи номеров должны идти подряд от даты заезда до даты выезда',
  gone: 'Размещение в нескольких номерах на эти ночи больше не предлагается: проверьте свободные номера заново',
};

/**
 * The rooms of the split stay a guest took as the widget offered it (docs/decisions/room-moves.md): the nights must
 * run from the check-in to the check-out (400), and the category's offer must still split the stay into those
 * nights (409 `sold_out` otherwise); its rooms now are the ones booked. Undefined: a stay by category.
 */
export async function splitRooms(
  bookings: Pick<BookingsService, 'splitOffered'>,
  hotelId: string,
  input: WidgetBookingInput,
): Promise<{ room_id: string; from: string; to: string }[] | undefined> {
  const asked = input.split;
  if (!asked) return undefined;
  const contiguous =
    asked.every((stretch, i) => stretch.from < stretch.to && stretch.from === (i ? asked[i - 1].to : input.check_in)) &&
    asked.at(-1)!.to === input.check_out;
  if (!contiguous)
    throw new ValidationError(splitMessages.notContiguous, [
      { path: 'body.split', message: splitMessages.notContiguous },
    ]);
  const offered = await bookings.splitOffered(hotelId, {
    category_id: input.category_id,
    check_in: input.check_in!,
    check_out: input.check_out!,
    guests: input.guests_count,
  });
  const same =
    offered?.length === asked.length &&
    offered.every((stretch, i) => stretch.from === asked[i].from && stretch.to === asked[i].to);
  if (!same) throw new ConflictError(splitMessages.gone, 'sold_out');
  return offered;
}
