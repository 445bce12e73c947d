import { formatMoney, MAX_STORED_CENTS, parseMoney } from '../../platform/money';
import { MAX_STAY_NIGHTS } from '../../platform/http/schemas';
import type { Segment } from './bookings.segments-repository';
import type { Booking } from './bookings.types';

export const bookingMessages = {
  notFound: 'Бронирование не найдено',
  roomNotFound: 'Номер не найден',
  categoryNotFound: 'Категория не найдена',
  guestNotFound: 'Гость не найден',
  tariffNotFound: 'Тариф не найден',
  paymentNotFound: 'Платёж не найден',
  roomClosed: 'Номер закрыт на обслуживание в эти даты',
  tooManyGuests: (max: number) => `В номере не больше ${max} гостей`,
  noFreeRoom: 'Нет свободных номеров этой категории на эти даты',
  manualAssignment: 'В отеле ручное распределение номеров: укажите room_id',
  hourlyNotAllowed: 'В этой категории нет почасового проживания',
  move: (from: string, to: string) => `Недопустимый переход статуса: ${from} → ${to}`,
  finalBooking: 'Завершённое или отменённое бронирование не меняется',
  unpaid: (balance: string) => `Заселение невозможно: не оплачено ${balance}`,
  unpaidWarning: (balance: string) => `Гость заселён с задолженностью ${balance}`,
  blacklisted: 'Гость в чёрном списке',
  stayTooLong: `Проживание не может быть дольше ${MAX_STAY_NIGHTS} ночей`,
  priceTooHigh: `Стоимость проживания больше предельной суммы ${formatMoney(MAX_STORED_CENTS)}`,
  paidOutOfRange: `Сумма оплат по бронированию должна оставаться в пределах ±${formatMoney(MAX_STORED_CENTS)}`,
  bookingClosed: 'Отменённое бронирование не принимает начислений',
  discountExceedsDue: 'Скидка больше стоимости проживания',
  roomTaken: 'Номер уже занят на эти даты',
  moveClosed: 'Выехавшего или отменённого гостя нельзя переселить',
  moveHourly: 'Почасовое проживание не переселяют: смените номер в бронировании',
  moveOutsideStay: (earliest: string, checkOut: string) =>
    `Переселить можно с ночи ${earliest} до ночи перед выездом ${checkOut}`,
  sameRoom: 'Гость уже в этом номере в эти ночи',
  plannedMoveReason: 'запланированное переселение',
  plannedMoveOver: 'Ночи в новом номере уже прошли',
  plannedMoveKept: 'запланированное переселение не выполнено: гость остаётся в своём номере',
  splitGone: 'Размещение в нескольких номерах на эти ночи больше не предлагается: проверьте свободные номера заново',
  splitNotContiguous:
    'Номера проживания должны идти подряд от даты заезда до даты выезда, каждый следующий — другой номер',
  movedRoomChange: 'У бронирования есть переезды: номер меняют переселением (move)',
  clash: (b: Booking) =>
    `Номер уже занят: бронирование ${b.guest_last_name} ${b.guest_first_name} ` +
    `(${b.check_in ?? b.start_at.toISOString()} — ${b.check_out ?? b.end_at.toISOString()})`,
};

/** What the stay costs: its price and the lines of its bill (room service added, loyalty discounts taken off). */
export function amountDue(booking: Booking): bigint {
  return parseMoney(booking.price) + parseMoney(booking.charges_amount);
}

/** What is still owed (negative when overpaid). */
export function balanceOf(booking: Booking): bigint {
  return amountDue(booking) - parseMoney(booking.paid_amount);
}

/** A booking as the front desk sees it: with what is still owed, and anything staff must notice. */
export function presentBooking(booking: Booking, warnings: string[] = []) {
  return {
    ...booking,
    balance: formatMoney(balanceOf(booking)),
    warnings: booking.guest_blacklisted ? [bookingMessages.blacklisted, ...warnings] : warnings,
  };
}

export type PresentedBooking = ReturnType<typeof presentBooking>;

/** The segments as a booking's answer shows them. */
export function presentSegments(segments: Segment[]) {
  return segments.map(({ room_id, from, to, start_at, end_at }) => ({ room_id, from, to, start_at, end_at }));
}
