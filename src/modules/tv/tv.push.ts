import { createHash } from 'node:crypto';
import type { SharedSettings } from '../../platform/config';
import {
  buildRequest,
  createTvClient,
  interpretResponse,
  type TvEvent,
  type TvHttpRequest,
  type TvOutcome,
  type TvStay,
} from '../../integrations/tv';
import type { Db } from '../../platform/db/knex';
import { AppError, BadGatewayError, ConflictError, GatewayTimeoutError } from '../../platform/errors';
import { assertPublicDestination } from '../../platform/outbound';
import type { AgentsService } from '../agents';
import { pushDetails } from './tv.messages';
import { pushLogRepository } from './tv.repository';
import type { ConnectionType, PushEvent, PushLogEntry, TvSettingsRow } from './tv.types';

/** How long a staff request (the test check-in) waits for the TV system, directly or through the desk. */
export const STAFF_PUSH_TIMEOUT_MS = 10_000;
/** One attempt of a push from the worker: within the activity's 30 s, with room to log and fail cleanly. */
export const WORKER_PUSH_TIMEOUT_MS = 20_000;

/** An opaque id of the stay the TV system matches check-in and check-out by: not our booking id. */
export const stayReference = (bookingId: string) =>
  createHash('sha256').update(`tv-stay:${bookingId}`).digest('hex').slice(0, 32);

export interface PushAttempt {
  hotelId: string;
  bookingId: string | null;
  event: PushEvent;
  attempt: number;
  /** Which push of its booking and event this is, when a stay has several (a move's, by its activity). */
  instance?: string;
}

export interface PushResult {
  /** Undefined when the hotel is gone. */
  entry: PushLogEntry | undefined;
  outcome: TvOutcome;
}

/** Sends a push through a desk and answers what the TV system said: how the desk is reached differs by caller. */
export type DeskSender = (settings: TvSettingsRow, request: TvHttpRequest, attempt: PushAttempt) => Promise<TvOutcome>;

const MAX_DETAIL = 1000;

/** The desk's `http_request` result, read defensively: it comes from a program on a hotel's PC. */
export function outcomeOfDeskResult(result: Record<string, unknown>): TvOutcome {
  const { status, body } = result;
  if (typeof status !== 'number' || !Number.isInteger(status))
    return { kind: 'retryable', status: null, detail: 'Рабочее место вернуло ответ без HTTP-статуса' };
  return interpretResponse(status, typeof body === 'string' ? body : undefined);
}

/** Staff wait for the answer: a quick command, answered or refused within the request. */
export function askingDesk(agents: Pick<AgentsService, 'commands'>): DeskSender {
  return async (settings, request) => {
    try {
      const result = await agents.commands.ask(
        settings.hotel_id,
        settings.agent_workstation_id as string,
        'http_request',
        { ...request },
        STAFF_PUSH_TIMEOUT_MS,
      );
      return outcomeOfDeskResult(result);
    } catch (error) {
      if (error instanceof ConflictError) throw error;
      if (error instanceof GatewayTimeoutError)
        return { kind: 'retryable', status: null, detail: pushDetails.deskSilent };
      if (error instanceof BadGatewayError) return { kind: 'retryable', status: null, detail: error.message };
      if (error instanceof AppError && error.status < 500) return { kind: 'refused', status: 0, detail: error.message };
      throw error;
    }
  };
}

/** Sends pushes (directly or through a desk) and logs every attempt, whatever became of it. */
export function createPusher(db: Db, config: Pick<SharedSettings, 'allowPrivateOutbound'>) {
  const guard = (url: string) => assertPublicDestination(url, { allowPrivate: config.allowPrivateOutbound });

  const log = (
    attempt: PushAttempt,
    status: PushLogEntry['status'],
    detail: string,
    extra: Partial<PushLogEntry> = {},
  ) =>
    pushLogRepository.add(db, {
      hotel_id: attempt.hotelId,
      booking_id: attempt.bookingId,
      event: attempt.event,
      attempt: attempt.attempt,
      status,
      detail: Array.from(detail).slice(0, MAX_DETAIL).join(''),
      via: null,
      http_status: null,
      ...extra,
    });

  async function direct(serverUrl: string, event: TvEvent, stay: TvStay, timeoutMs: number): Promise<TvOutcome> {
    try {
      return await createTvClient({ timeoutMs, beforeConnect: guard }).push(serverUrl, event, stay);
    } catch (error) {
      // The guard: the address became private (or unresolvable) since it was saved; repeating may help only the latter.
      if (error instanceof AppError) return { kind: 'retryable', status: null, detail: error.message };
      throw error;
    }
  }

  return {
    skip: (attempt: PushAttempt, detail: string) => log(attempt, 'skipped', detail),

    async send(
      settings: TvSettingsRow & { server_url: string },
      stay: TvStay,
      attempt: PushAttempt,
      desk: DeskSender,
      timeoutMs: number,
    ): Promise<PushResult> {
      const via: ConnectionType = settings.connection_type;
      const event: TvEvent = attempt.event === 'check_out' ? 'check_out' : 'check_in';
      let outcome: TvOutcome;
      try {
        outcome =
          via === 'agent'
            ? await desk(settings, buildRequest(settings.server_url, event, stay), attempt)
            : await direct(settings.server_url, event, stay, timeoutMs);
      } catch (error) {
        if (error instanceof ConflictError) await log(attempt, 'error', pushDetails.deskOffline, { via });
        throw error;
      }
      const httpStatus = outcome.status || null;
      const entry =
        outcome.kind === 'ok'
          ? await log(attempt, 'ok', pushDetails.ok(outcome.status), { via, http_status: httpStatus })
          : await log(attempt, 'error', outcome.detail, { via, http_status: httpStatus });
      return { entry, outcome };
    },
  };
}

export type Pusher = ReturnType<typeof createPusher>;
