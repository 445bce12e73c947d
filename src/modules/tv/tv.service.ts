import { randomUUID } from 'node:crypto';
import type { SharedSettings } from '../../platform/config';
import type { TvStay } from '../../integrations/tv';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { NotFoundError, ValidationError } from '../../platform/errors';
import type { AgentsService } from '../agents';
import type { BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { RoomsService } from '../rooms';
import { pushDetails, tokenInvalid, tvMessages } from './tv.messages';
import { createPollLog } from './tv.poll-log';
import { reservationsOf } from './tv.polls';
import {
  askingDesk,
  createPusher,
  STAFF_PUSH_TIMEOUT_MS,
  stayReference,
  type DeskSender,
  type PushAttempt,
} from './tv.push';
import { pushLogRepository } from './tv.repository';
import { createTvSettings, tokenMatches } from './tv.settings';
import type { PushStatus, TvReservation, TvSettingsRow } from './tv.types';

export interface TvDependencies {
  hotels: Pick<HotelsService, 'findBySlug'>;
  rooms: Pick<RoomsService, 'findRoom'>;
  agents: Pick<AgentsService, 'workstations' | 'commands'>;
  bookings: Pick<BookingsService, 'get' | 'list' | 'followStays'>;
}

export interface TestResult {
  status: PushStatus;
  detail: string;
  http_status: number | null;
}

type Ready = TvSettingsRow & { server_url: string };

/** Why nothing can be sent with these settings for that room, or undefined when it can (and the room number). */
export function obstacle(settings: TvSettingsRow, roomId: string | undefined, needsEnabled: boolean) {
  if (needsEnabled && !settings.enabled) return pushDetails.disabled;
  if (!settings.server_url) return pushDetails.noServer;
  if (settings.connection_type === 'agent' && !settings.agent_workstation_id) return pushDetails.noWorkstation;
  if (!roomId || !settings.netup_room_number[roomId]) return pushDetails.roomNotMapped;
  return undefined;
}

/** The hotel's TV system: its settings, pushes of check-ins and check-outs, and its polls of `/tvpms`. */
export function createTvService(db: Db, config: Pick<SharedSettings, 'allowPrivateOutbound'>, deps: TvDependencies) {
  const settings = createTvSettings(db, config, deps);
  const pusher = createPusher(db, config);
  const polls = createPollLog();

  /**
   * The hotel polling: the one named (`?hotel=`) if the token is its own, of either kind; else the one holding this
   * issued token (a vendor's token is kept keyed by its hotel, so a poll with one must name the hotel).
   */
  async function pollingHotel(token: string | undefined, slug: string | undefined) {
    if (slug === undefined) return token ? settings.byIssuedToken(token) : undefined;
    const hotel = await deps.hotels.findBySlug(slug);
    const row = hotel && (await settings.find(hotel.id));
    return row && tokenMatches(row, token) ? row : undefined;
  }

  return {
    settings,

    log: (hotelId: string, page: PageRequest) => pushLogRepository.list(db, hotelId, page),
    logOfBooking: (hotelId: string, bookingId: string, limit: number) =>
      pushLogRepository.ofBooking(db, hotelId, bookingId, limit),

    /** Push attempts older than 30 days: the maintenance sweep's. */
    purgeOldLog: () => pushLogRepository.purgeOld(db),

    /** A test check-in of "Тест Тестов" into a mapped room, logged like a real one; 409 when the desk is offline. */
    async testCheckin(hotelId: string, roomId?: string): Promise<TestResult> {
      const row = await settings.row(hotelId);
      if (roomId && !row.netup_room_number[roomId])
        throw new ValidationError(tvMessages.roomNotMappedForTest, [
          { path: 'body.room_id', message: tvMessages.roomNotMappedForTest },
        ]);
      const room = roomId ?? Object.keys(row.netup_room_number)[0];
      const attempt: PushAttempt = { hotelId, bookingId: null, event: 'test_check_in', attempt: 1 };
      const blocked = obstacle(row, room, false);
      if (blocked) {
        await pusher.skip(attempt, blocked);
        return { status: 'skipped', detail: blocked, http_status: null };
      }
      const now = Date.now();
      const stay: TvStay = {
        room: row.netup_room_number[room],
        firstName: 'Тест',
        lastName: 'Тестов',
        language: row.default_language,
        arrival: new Date(now),
        departure: new Date(now + 24 * 60 * 60_000),
        reference: `test-${randomUUID()}`,
      };
      const sent = await pusher.send(row as Ready, stay, attempt, askingDesk(deps.agents), STAFF_PUSH_TIMEOUT_MS);
      // Logged: the hotel exists, one of its staff is asking.
      const entry = sent.entry!;
      return { status: entry.status, detail: entry.detail, http_status: entry.http_status };
    },

    /**
     * One attempt of a booking's push, logged. `skipped` when there is nothing to send; otherwise the TV system's
     * answer (`outcome`) for the caller to succeed, retry or give up on.
     */
    async pushStay(
      { roomId, ...input }: Omit<PushAttempt, 'bookingId'> & { bookingId: string; roomId?: string },
      desk: DeskSender,
      timeoutMs: number,
    ) {
      const row = await settings.row(input.hotelId);
      let booking: Awaited<ReturnType<BookingsService['get']>>;
      try {
        booking = await deps.bookings.get(input.hotelId, input.bookingId);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        await pusher.skip(input, pushDetails.bookingNotFound);
        return { skipped: true as const };
      }
      const room = roomId ?? booking.room_id;
      const blocked =
        obstacle(row, room, true) ??
        (input.event === 'check_in' && booking.status !== 'checked_in' ? pushDetails.notInHouse : undefined);
      if (blocked) {
        await pusher.skip(input, blocked);
        return { skipped: true as const };
      }
      const stay: TvStay = {
        room: row.netup_room_number[room],
        firstName: booking.guest_first_name,
        lastName: booking.guest_last_name,
        language: row.default_language,
        arrival: booking.start_at,
        departure: booking.end_at,
        reference: stayReference(booking.id),
      };
      return { skipped: false as const, ...(await pusher.send(row as Ready, stay, input, desk, timeoutMs)) };
    },

    /**
     * A poll of `/tvpms`: the stays in house in mapped rooms of the hotel whose token it is, logged in the ring buffer.
     * 401 for a missing or unknown token, or a hotel named that does not hold it (one answer for all).
     */
    async poll(
      token: string | undefined,
      request: { method: string; address: string; hotel?: string },
    ): Promise<TvReservation[]> {
      const { hotel: slug, ...logged } = request;
      const row = await pollingHotel(token, slug);
      if (!row) throw tokenInvalid();
      // Switched off: the TV system is told nobody is in house rather than refused (its token is still good).
      const reservations = row.enabled ? await reservationsOf(deps.bookings, row) : [];
      polls.add(row.hotel_id, {
        at: new Date().toISOString(),
        ...logged,
        status: 200,
        reservations: reservations.length,
      });
      return reservations;
    },

    pollLog: (hotelId: string) => polls.of(hotelId),

    /** For super_admin reading a hotel's polls by its slug. */
    hotelBySlug: (slug: string) => deps.hotels.findBySlug(slug),
  };
}

export type TvService = ReturnType<typeof createTvService>;
