import { formatMoney, MAX_STORED_CENTS } from '../../platform/money';
import type { OpeningHours, RentalBooking } from './rentals.types';

/** The longest daily rental, in days: a season of events, not a lease. */
export const MAX_RENTAL_DAYS = 93;

const clock = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export const rentalMessages = {
  hotelNotFound: 'Отель не найден',
  objectNotFound: 'Объект аренды не найден',
  bookingNotFound: 'Бронирование аренды не найдено',
  roomBookingNotFound: 'Бронирование номера не найдено',
  objectHasBookings: 'У объекта есть бронирования: удалить его нельзя, сделайте его неактивным',
  draft: 'Объект аренды — черновик: сначала сделайте его активным',
  openBeforeClose: 'Время открытия должно быть раньше времени закрытия',
  outOfBounds: 'Значение вне допустимых пределов',
  kindFields: {
    hourly: 'Для почасовой аренды укажите start_at и end_at',
    daily: 'Для аренды по дням укажите date_from и date_to',
  },
  endBeforeStart: 'Окончание аренды должно быть позже начала',
  wholeHours: 'Почасовая аренда начинается и заканчивается в начале часа',
  lastDayFirst: 'Последний день аренды не может быть раньше первого',
  tooManyDays: `Аренда по дням — не больше ${MAX_RENTAL_DAYS} дней`,
  outsideHours: (hours: OpeningHours) =>
    `Объект работает с ${clock(hours.open_hour)} до ${clock(hours.close_hour)}: выберите время в эти часы`,
  inThePast: 'Нельзя забронировать время, которое уже прошло',
  priceTooHigh: `Стоимость аренды больше предельной суммы ${formatMoney(MAX_STORED_CENTS)}`,
  windowBackwards: 'Конец окна календаря не может быть раньше начала',
  cancelled: 'Отменённое бронирование не меняется',
  taken: 'Объект уже занят в это время',
  clash: (other: RentalBooking) =>
    `Объект уже занят: бронирование ${other.guest_name} ` +
    `(${other.start_at.toISOString()} — ${other.end_at.toISOString()}` +
    `${other.buffer_minutes > 0 ? `, затем перерыв ${other.buffer_minutes} мин` : ''})`,
};
