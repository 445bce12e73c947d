import type { Db } from '../../platform/db/knex';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { HOTEL_SLUG_PATTERN } from '../../platform/http/schemas';
import type { BookingsService, OffersQuery } from '../bookings';
import type { GuestsService } from '../guests';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import type { OnlinePayments } from '../billing';
import type { PaymentsService } from '../payments';
import { formatMoney, parseMoney } from '../../platform/money';
import type { RentalsService } from '../rentals';
import type { RoomsService } from '../rooms';
import type { TouristTaxService } from '../tourist-tax';
import { createPublicCache } from './widget.cache';
import { CONSENT_OUTDATED, consentsRepository, consentTo, type WidgetRentalInput } from './widget.consent';
import { widgetSettingsRepository } from './widget.repository';
import type { WidgetBookingInput, WidgetService, WidgetSettingsChanges } from './widget.types';

export interface WidgetDependencies {
  hotels: Pick<HotelsService, 'findBySlug' | 'find'>;
  rooms: Pick<RoomsService, 'listCategories'>;
  rentals: Pick<RentalsService, 'activeObjects' | 'bookings'>;
  guests: Pick<GuestsService, 'byContact'>;
  bookings: Pick<BookingsService, 'create' | 'offers'>;
  payments: Pick<PaymentsService, 'gateways'>;
  notifications: Pick<NotificationsService, 'notify'>;
  billing: { onlinePayments: Pick<OnlinePayments, 'create' | 'find'> };
  touristTax: Pick<TouristTaxService, 'ofBooking'>;
}

export const widgetMessages = {
  hotelNotFound: 'Отель не найден',
  // One text for every refusal of a person, so the answer tells nothing about why (a blacklist included).
  refused: 'Не удалось оформить бронирование. Пожалуйста, свяжитесь с отелем.',
  soldOut: 'На эти даты свободных номеров этой категории больше нет',
  rentalTaken: 'Это время уже занято, выберите другое',
  unknownService: (code: string) => `Услуга «${code}» не предлагается`,
};

/** The one answer for a hotel the widget does not serve: unknown, inactive, its widget off, or a malformed slug. */
export const hotelNotFound = () => new NotFoundError(widgetMessages.hotelNotFound);

/** How long the widget's answer waits for the provider's payment page before telling the guest to come back. */
const PAYMENT_PAGE_WAIT_MS = 3000;
const PAYMENT_PAGE_POLL_MS = 50;
const MAX_CATEGORIES = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The public booking widget: what a guest sees of a hotel and submits to it, anonymously, from the hotel's own site.
 * Only active, public data goes out; a hotel that is unknown, inactive or has the widget off is the same 404.
 */
export function createWidgetService(db: Db, deps: WidgetDependencies) {
  const cache = createPublicCache();

  /**
   * The hotel behind a public slug (cached briefly: every widget request starts here). A slug of a shape no hotel has
   * is looked up nowhere (a browser's CORS preflight asks before any route validates it).
   */
  async function publicHotel(slug: string) {
    if (!HOTEL_SLUG_PATTERN.test(slug)) throw hotelNotFound();
    const hotel = await cache.hotel(slug, async () => {
      const ref = await deps.hotels.findBySlug(slug);
      const found = ref && (await deps.hotels.find(ref.id));
      const settings = found && (await widgetSettingsRepository.get(db, found.id));
      return found?.is_active && settings?.is_enabled ? { hotel: found, settings } : undefined;
    });
    if (!hotel) throw hotelNotFound();
    return hotel;
  }

  /** A guest the hotel blacklisted, by phone or e-mail whatever name they give: one generic refusal. */
  async function refuseBlacklisted(hotelId: string, contact: { phone?: string | null; email?: string | null }) {
    const profiles = await deps.guests.byContact(hotelId, contact);
    if (profiles.some((profile) => profile.blacklisted))
      throw new ForbiddenError(widgetMessages.refused, 'booking_refused');
  }

  function servicesAsked(offered: WidgetService[], codes: string[]): WidgetService[] {
    return codes.map((code) => {
      const found = offered.find((service) => service.code === code);
      if (!found) throw new BusinessRuleError(widgetMessages.unknownService(code), [], 'unknown_service');
      return found;
    });
  }

  /** The provider's page for the payment, once its workflow has created it (usually within a few hundred ms). */
  async function paymentPage(hotelId: string, paymentId: string) {
    const deadline = Date.now() + PAYMENT_PAGE_WAIT_MS;
    for (;;) {
      const payment = await deps.billing.onlinePayments.find(hotelId, paymentId);
      if (payment.confirmation_url || payment.status !== 'pending' || Date.now() > deadline) return payment;
      await sleep(PAYMENT_PAGE_POLL_MS);
    }
  }

  return {
    settings: {
      get: (hotelId: string) => widgetSettingsRepository.get(db, hotelId),
      async update(hotelId: string, { services, ...changes }: WidgetSettingsChanges, expected?: ExpectedVersion) {
        const priced = services?.map((service) => ({ ...service, price: formatMoney(parseMoney(service.price)) }));
        await widgetSettingsRepository.update(
          db,
          hotelId,
          { ...changes, ...(priced && { services: priced }) },
          expected,
        );
        cache.forgetHotel(hotelId);
        return widgetSettingsRepository.get(db, hotelId);
      },
      onHotelCreated: widgetSettingsRepository.insertDefaults,
    },

    /** The origins a browser may call this hotel's widget from (CORS); none for an unknown slug. */
    async allowedOrigins(slug: string): Promise<string[]> {
      try {
        return (await publicHotel(slug)).settings.allowed_origins;
      } catch (error) {
        if (error instanceof NotFoundError) return [];
        throw error;
      }
    },

    /** What the widget draws itself from: the hotel, its active categories, rental objects and services. */
    async config(slug: string) {
      const { hotel, settings } = await publicHotel(slug);
      return cache.config(hotel.id, async () => {
        const { items } = await deps.rooms.listCategories(hotel.id, { is_active: true, limit: MAX_CATEGORIES });
        return {
          hotel: {
            name: hotel.name,
            slug: hotel.slug,
            address: hotel.address,
            phone: hotel.phone,
            timezone: hotel.timezone,
            currency: hotel.currency,
            check_in_time: hotel.check_in_time,
            check_out_time: hotel.check_out_time,
          },
          categories: items.map((category) => ({
            id: category.id,
            name: category.name,
            description: category.description,
            capacity: category.capacity,
            base_price: category.base_price,
            allow_hourly: category.allow_hourly,
            hourly_base_price: category.hourly_base_price,
            photos: category.photos,
            sort_order: category.sort_order,
          })),
          rental_objects: await deps.rentals.activeObjects(hotel.id),
          widgetSettings: {
            services: settings.services.map(({ code, name, price, description }) => ({
              code,
              name,
              price,
              description,
            })),
            consent_text_version: settings.consent_text_version,
          },
        };
      });
    },

    /** Free categories for the party and their prices per night and for the stay, from the quote engine. */
    async availability(slug: string, query: OffersQuery) {
      const { hotel } = await publicHotel(slug);
      return deps.bookings.offers(hotel.id, query);
    },

    /**
     * A guest's booking: by category, or the split stay offered in its rooms; priced by the server, checked against
     * the room constraint in its transaction, stored as an `online` inquiry with its guest profile; staff are notified,
     * and with online payment configured the answer carries the provider's payment page. Idempotent with
     * `Idempotency-Key`.
     */
    async submit(slug: string, input: WidgetBookingInput, idempotencyKey?: string) {
      const { hotel, settings } = await publicHotel(slug);
      await refuseBlacklisted(hotel.id, { phone: input.guest_phone, email: input.guest_email });
      const services = servicesAsked(settings.services, input.services);
      const actor = { userId: null, hotelSlug: hotel.slug };
      const notes = [
        input.comment ?? '',
        ...services.map((service) => `Услуга: ${service.name} (${service.price} ${hotel.currency})`),
      ]
        .filter(Boolean)
        .join('\n');
      let created: Awaited<ReturnType<typeof deps.bookings.create>>;
      try {
        created = await deps.bookings.create(
          hotel.id,
          {
            category_id: input.category_id,
            // A split stay offered: booked in the rooms the offer has now, as staff book one.
            ...(input.split ? { offered_split: input.split } : { unattended_strategy: 'sequential' as const }),
            ...(input.check_in
              ? { check_in: input.check_in, check_out: input.check_out }
              : { start_at: input.start_at, end_at: input.end_at }),
            guests_count: input.guests_count,
            guest_last_name: input.guest_last_name,
            guest_first_name: input.guest_first_name,
            guest_middle_name: input.guest_middle_name,
            guest_phone: input.guest_phone,
            guest_email: input.guest_email ?? null,
            source: 'online',
            status: 'inquiry',
            notes,
          },
          actor,
          idempotencyKey,
          // The consent is checked and recorded with the booking: both or neither; a replay answers as the first.
          (trx, booking) =>
            consentsRepository.record(
              trx,
              hotel.id,
              { booking_id: booking.id },
              consentTo(settings, input.consent_version),
            ),
        );
      } catch (error) {
        // A clash names nobody to the public; a split stay no longer offered says so itself.
        if (error instanceof ConflictError && error.code !== CONSENT_OUTDATED && error.code !== 'sold_out')
          throw new ConflictError(widgetMessages.soldOut, 'sold_out');
        throw error;
      }
      const booking = created.body;
      await db.transaction((trx) =>
        deps.notifications.notify(trx, hotel.id, {
          type: 'widget_booking',
          title: `Бронирование с сайта: ${booking.guest_last_name} ${booking.guest_first_name}`,
          body: `${booking.check_in ?? booking.start_at.toISOString()} — ${booking.check_out ?? booking.end_at.toISOString()}`,
          dedupeKey: `widget-booking:${booking.id}`,
          data: { booking_id: booking.id },
        }),
      );
      const payment =
        (await deps.payments.gateways.activeYooKassa(hotel.id)) && parseMoney(booking.price) > 0n
          ? await deps.billing.onlinePayments
              .create(hotel.id, booking.id, { return_url: input.return_url }, actor, idempotencyKey)
              .then((started) => paymentPage(hotel.id, started.body.id))
          : undefined;
      return {
        status: created.status,
        body: {
          booking: {
            id: booking.id,
            status: booking.status,
            category_id: booking.category_id,
            check_in: booking.check_in,
            check_out: booking.check_out,
            start_at: booking.start_at,
            end_at: booking.end_at,
            guests_count: booking.guests_count,
            price: formatMoney(parseMoney(booking.price)),
            tourist_tax: await deps.touristTax.ofBooking(hotel.id, booking),
            currency: hotel.currency,
            services: services.map(({ code, name, price }) => ({ code, name, price })),
            ...('rooms' in booking && { split: booking.rooms.map(({ from, to }) => ({ from, to })) }),
          },
          payment: payment
            ? {
                id: payment.id,
                status: payment.status,
                amount: payment.amount,
                confirmation_url: payment.confirmation_url,
              }
            : null,
        },
      };
    },

    /** A court, sauna or hall by the hour or the day, checked against its other bookings and buffer; idempotent. */
    async submitRental(slug: string, widgetInput: WidgetRentalInput, idempotencyKey?: string) {
      const { hotel, settings } = await publicHotel(slug);
      const { consent_version: consentVersion, ...input } = widgetInput;
      await refuseBlacklisted(hotel.id, { phone: input.guest_phone, email: input.guest_email });
      const actor = { userId: null, hotelSlug: hotel.slug };
      const created = await deps.rentals.bookings
        .create(hotel.id, { ...input, source: 'online' }, actor, idempotencyKey, (trx, booking) =>
          consentsRepository.record(
            trx,
            hotel.id,
            { rental_booking_id: booking.id },
            consentTo(settings, consentVersion),
          ),
        )
        .catch((error: unknown) => {
          // Staff are told whose booking is in the way; a guest only that the time is taken.
          throw error instanceof ConflictError && error.code !== CONSENT_OUTDATED
            ? new ConflictError(widgetMessages.rentalTaken, 'rental_taken')
            : error;
        });
      const { id, rental_object_id, kind, date_from, date_to, start_at, end_at, status, price } = created.body;
      return {
        status: created.status,
        body: {
          id,
          rental_object_id,
          kind,
          date_from,
          date_to,
          start_at,
          end_at,
          status,
          price,
          currency: hotel.currency,
        },
      };
    },

    /**
     * Prefill for a returning guest: whether a profile has this contact, and its first name; nothing else, ever
     * (no last name, no stays, no blacklist flag).
     */
    async lookup(slug: string, contact: { email?: string; phone?: string }) {
      const { hotel } = await publicHotel(slug);
      const [profile] = await deps.guests.byContact(hotel.id, contact);
      return { found: Boolean(profile), first_name: profile?.first_name ?? null };
    },
  };
}

export type WidgetServiceApi = ReturnType<typeof createWidgetService>;
