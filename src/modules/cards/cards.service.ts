import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox } from '../../platform/db/outbox';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../platform/errors';
import type { AgentRefusal } from '../../../workflows/contracts/agents';
import type { CardIssuanceWorkflow, CardWriteCommand } from '../../../workflows/contracts/cards';
import type { AgentsService } from '../agents';
import type { BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { LockvendorService } from '../lockvendor';
import { cardIssuanceUpdated } from './cards.events';
import { cardMessages } from './cards.messages';
import { cardsRepository } from './cards.repository';
import type { CardIssuance, DoorLock, IssueCardInput } from './cards.types';

/** The guest is at the desk: a card not written within this is reported as not written (staff try again). */
export const CARD_WRITE_DEADLINE_MS = 5 * 60_000;
const ISSUABLE = new Set(['confirmed', 'checked_in']);

export interface CardsDependencies {
  bookings: Pick<BookingsService, 'get'>;
  agents: Pick<AgentsService, 'workstations' | 'commands' | 'desk'>;
  lockvendor: Pick<LockvendorService, 'hotelInfo' | 'roomLocks'>;
  hotels: Pick<HotelsService, 'find'>;
}

export interface CardActor {
  userId: string;
}

const notFound = () => new NotFoundError(cardMessages.notFound);

function announce(trx: DbOrTrx, card: CardIssuance) {
  return cardIssuanceUpdated.publish(trx, card.hotel_id, {
    issuance_id: card.id,
    booking_id: card.booking_id,
    status: card.status,
    card_number: card.card_number,
    error_code: card.error_code,
  });
}

/**
 * Door-lock cards: staff ask for one at a desk, a `cardIssuance` workflow has the desk's agent write it, and the
 * issuance records the card number or why it was not written. Cancelling reads the card on the encoder and voids it.
 */
export function createCardsService(db: Db, deps: CardsDependencies) {
  const { bookings, agents, lockvendor, hotels } = deps;

  async function doorLocks(hotelId: string, roomIds: string[]): Promise<DoorLock[]> {
    const locks = await Promise.all(roomIds.map((roomId) => lockvendor.roomLocks.ofRoom(hotelId, roomId)));
    if (locks.some((lock) => !lock)) throw new BusinessRuleError(cardMessages.roomWithoutLock, [], 'room_without_lock');
    return locks as DoorLock[];
  }

  async function encoderPort(hotelId: string, workstationId: string): Promise<string> {
    const workstation = await agents.workstations.get(hotelId, workstationId);
    if (!workstation.ttlock_com_port) {
      throw new BusinessRuleError(cardMessages.encoderPortMissing, [], 'encoder_port_missing');
    }
    return workstation.ttlock_com_port;
  }

  async function find(hotelId: string, id: string): Promise<CardIssuance> {
    const card = await cardsRepository.find(db, hotelId, id);
    if (!card) throw notFound();
    return card;
  }

  return {
    /** Records the request and starts its workflow (`card:<id>`); the card is written by the time the event says so. */
    async issue(hotelId: string, input: IssueCardInput, actor: CardActor): Promise<CardIssuance> {
      const booking = await bookings.get(hotelId, input.booking_id);
      if (!ISSUABLE.has(booking.status))
        throw new BusinessRuleError(cardMessages.bookingNotActive, [], 'booking_not_active');
      await encoderPort(hotelId, input.workstation_id);
      const roomIds = input.room_ids ?? [booking.room_id];
      await doorLocks(hotelId, roomIds);
      const validUntil = input.valid_until ?? booking.end_at;
      if (validUntil.getTime() <= Date.now() || validUntil.getTime() > booking.end_at.getTime()) {
        throw new BusinessRuleError(cardMessages.validityOutOfStay, [], 'card_validity_out_of_stay');
      }
      const hotel = await hotels.find(hotelId);
      return db.transaction(async (trx) => {
        const card = await cardsRepository.insert(trx, hotelId, {
          booking_id: booking.id,
          workstation_id: input.workstation_id,
          room_ids: roomIds,
          sectors: [...new Set(input.sectors)].sort((a, b) => a - b),
          valid_from: new Date(),
          valid_until: validUntil,
          issued_by: actor.userId,
        });
        await announce(trx, card);
        const args: Parameters<CardIssuanceWorkflow> = [
          { hotelId, issuanceId: card.id, writeDeadlineMs: CARD_WRITE_DEADLINE_MS },
        ];
        await enqueueOutbox(trx, {
          kind: 'startWorkflow',
          workflowType: 'cardIssuance',
          workflowId: `card:${card.id}`,
          args,
          searchAttributes: { HotelSlug: hotel!.slug, BookingId: booking.id },
          memo: { hotel: hotel!.slug, booking: booking.id, card: card.id },
        });
        return card;
      });
    },

    get: find,

    /** Asks the desk for its encoder DLL's version, on the encoder port set for it. */
    async dllInfo(hotelId: string, workstationId: string) {
      const comPort = await encoderPort(hotelId, workstationId);
      return agents.desk.encoderDllInfo({ hotelId, workstationId }, comPort);
    },

    forBooking: (hotelId: string, bookingId: string) => cardsRepository.forBooking(db, hotelId, bookingId),

    /**
     * What the desk's agent writes: fetched when the workflow runs, so the lock cloud's hotel info is fresh. Its
     * refusals (no encoder port, a room without a lock, the lock cloud's) are what the issuance records.
     */
    async prepareWrite(hotelId: string, id: string): Promise<CardWriteCommand | undefined> {
      // An issuance gone with its hotel has nothing to write; throwing would retry its workflow in vain.
      const card = await cardsRepository.find(db, hotelId, id);
      if (card?.status !== 'pending' || !card.workstation_id) return undefined;
      const comPort = await encoderPort(hotelId, card.workstation_id);
      const locks = await doorLocks(hotelId, card.room_ids);
      const { hotelInfo } = await lockvendor.hotelInfo(hotelId);
      return {
        workstationId: card.workstation_id,
        payload: {
          com_port: comPort,
          hotel_info: hotelInfo,
          build_no: locks[0].build_no,
          floor_no: locks[0].floor_no,
          lock_macs: locks.map((lock) => lock.lock_mac),
          sectors: card.sectors,
          valid_from: card.valid_from.toISOString(),
          valid_until: card.valid_until.toISOString(),
        },
      };
    },

    recordWritten: (hotelId: string, id: string, cardNumber: string) =>
      db.transaction(async (trx) => {
        const card = await cardsRepository.settle(trx, hotelId, id, 'pending', {
          status: 'written',
          card_number: cardNumber,
        });
        if (card) await announce(trx, card);
      }),

    recordFailed: (hotelId: string, id: string, refusal: AgentRefusal) =>
      db.transaction(async (trx) => {
        const card = await cardsRepository.settle(trx, hotelId, id, 'pending', {
          status: 'failed',
          error_code: refusal.code,
          error_message: refusal.message || cardMessages.deskUnreachable,
        });
        if (card) await announce(trx, card);
      }),

    /**
     * Voids a written card: staff put it on the encoder of the desk they stand at, whose agent clears it and says
     * which card it was (409 when it is another card; the desk's own refusals as for any quick command).
     */
    async cancel(hotelId: string, id: string, workstationId: string, actor: CardActor): Promise<CardIssuance> {
      const card = await find(hotelId, id);
      if (card.status !== 'written') throw new ConflictError(cardMessages.notWritten, 'card_not_written');
      const comPort = await encoderPort(hotelId, workstationId);
      const { hotelInfo } = await lockvendor.hotelInfo(hotelId);
      const answer = await agents.commands.ask(hotelId, workstationId, 'cancel_card', {
        com_port: comPort,
        hotel_info: hotelInfo,
      });
      if (String(answer.card_number) !== card.card_number) {
        throw new ConflictError(`${cardMessages.otherCardOnEncoder} (№ ${String(answer.card_number)})`, 'other_card');
      }
      return db.transaction(async (trx) => {
        const cancelled = await cardsRepository.settle(trx, hotelId, id, 'written', {
          status: 'cancelled',
          cancelled_by: actor.userId,
        });
        if (!cancelled) throw new ConflictError(cardMessages.notWritten, 'card_not_written');
        await announce(trx, cancelled);
        return cancelled;
      });
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;
