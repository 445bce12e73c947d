import { escapeHtml, type MailMessage } from '../../platform/mail';
import type { GuestEmailKind } from '../../../workflows/contracts/bookings';
import type { GuestLanguage, Hotel } from '../hotels';
import type { Booking } from './bookings.types';

/** The texts of the e-mails to the guest of an online booking, in the language the hotel writes to its guests in. */

export interface GuestEmailFacts {
  hotel: Pick<Hotel, 'name' | 'phone' | 'timezone' | 'currency'>;
  booking: Booking;
  categoryName: string;
  language: GuestLanguage;
  /** The stay's tourist tax, charged on top of the price ("0.00": none). */
  touristTax: string;
}

interface Wording {
  locale: string;
  greeting: (name: string) => string;
  subject: Record<GuestEmailKind, (hotel: string) => string>;
  lead: Record<GuestEmailKind, (hotel: string) => string>;
  label: Record<'reference' | 'category' | 'arrival' | 'departure' | 'price' | 'touristTax' | 'phone', string>;
}

const WORDING: Record<GuestLanguage, Wording> = {
  ru: {
    locale: 'ru-RU',
    greeting: (name) => `Здравствуйте, ${name}!`,
    subject: {
      received: (hotel) => `Заявка на бронирование получена — ${hotel}`,
      confirmed: (hotel) => `Бронирование подтверждено — ${hotel}`,
      cancelled: (hotel) => `Бронирование отменено — ${hotel}`,
    },
    lead: {
      received: (hotel) =>
        `Отель «${hotel}» получил вашу заявку на бронирование. Мы напишем вам, когда бронирование будет подтверждено.`,
      confirmed: (hotel) => `Ваше бронирование в отеле «${hotel}» подтверждено. Ждём вас!`,
      cancelled: (hotel) => `Ваше бронирование в отеле «${hotel}» отменено.`,
    },
    label: {
      reference: 'Номер бронирования',
      category: 'Категория номера',
      arrival: 'Заезд',
      departure: 'Выезд',
      price: 'Стоимость',
      touristTax: 'Туристический налог (оплачивается дополнительно)',
      phone: 'Телефон отеля',
    },
  },
  en: {
    locale: 'en-GB',
    greeting: (name) => `Hello, ${name}!`,
    subject: {
      received: (hotel) => `Booking request received — ${hotel}`,
      confirmed: (hotel) => `Booking confirmed — ${hotel}`,
      cancelled: (hotel) => `Booking cancelled — ${hotel}`,
    },
    lead: {
      received: (hotel) =>
        `${hotel} has received your booking request. We will write to you once the booking is confirmed.`,
      confirmed: (hotel) => `Your booking at ${hotel} is confirmed. We look forward to welcoming you!`,
      cancelled: (hotel) => `Your booking at ${hotel} has been cancelled.`,
    },
    label: {
      reference: 'Booking reference',
      category: 'Room type',
      arrival: 'Arrival',
      departure: 'Departure',
      price: 'Price',
      touristTax: 'Tourist tax (charged in addition)',
      phone: 'Hotel phone',
    },
  },
};

/** What the guest quotes to the hotel: the first 8 characters of the booking's id, in capitals. */
export function bookingReference(bookingId: string): string {
  return bookingId.slice(0, 8).toUpperCase();
}

/** A night stay's dates as dates; an hourly stay's start and end as the hotel's clock shows them. */
function stay({ booking, hotel }: GuestEmailFacts, locale: string): [arrival: string, departure: string] {
  if (booking.check_in && booking.check_out) {
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    return [
      day.format(new Date(`${booking.check_in}T00:00:00Z`)),
      day.format(new Date(`${booking.check_out}T00:00:00Z`)),
    ];
  }
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: hotel.timezone });
  return [moment.format(booking.start_at), moment.format(booking.end_at)];
}

export function guestBookingEmail(kind: GuestEmailKind, facts: GuestEmailFacts): MailMessage {
  const { hotel, booking, categoryName } = facts;
  const wording = WORDING[facts.language];
  const [arrival, departure] = stay(facts, wording.locale);
  const price = new Intl.NumberFormat(wording.locale, { style: 'currency', currency: hotel.currency });
  const details: [string, string][] = [
    [wording.label.reference, bookingReference(booking.id)],
    [wording.label.category, categoryName],
    [wording.label.arrival, arrival],
    [wording.label.departure, departure],
    [wording.label.price, price.format(booking.price as `${number}`)],
    ...(facts.touristTax !== '0.00'
      ? [[wording.label.touristTax, price.format(facts.touristTax as `${number}`)] as [string, string]]
      : []),
    ...(hotel.phone ? [[wording.label.phone, hotel.phone] as [string, string]] : []),
  ];
  const paragraphs = [wording.greeting(booking.guest_first_name), wording.lead[kind](hotel.name)];
  const rows = details.map(([label, value]) => `<tr><td>${escapeHtml(label)}</td><td>${escapeHtml(value)}</td></tr>`);
  return {
    to: booking.guest_email!,
    subject: wording.subject[kind](hotel.name),
    text: [...paragraphs, '', ...details.map(([label, value]) => `${label}: ${value}`)].join('\n'),
    html: `${paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<table>${rows.join('')}</table>`,
  };
}
