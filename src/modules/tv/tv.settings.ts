import { createHash } from 'node:crypto';
import type { Config } from '../../config';
import { refusalsAs } from '../../platform/db/base-model';
import type { Db } from '../../platform/db/knex';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { assertPublicDestination } from '../../platform/outbound';
import type { AgentsService } from '../agents';
import type { RoomsService } from '../rooms';
import { tvMessages } from './tv.messages';
import { settingsRepository } from './tv.repository';
import type { RoomNumberMap, TvSettings, TvSettingsInput, TvSettingsRow } from './tv.types';

export interface TvSettingsDependencies {
  rooms: Pick<RoomsService, 'findRoom'>;
  agents: Pick<AgentsService, 'workstations'>;
}

/** The token is looked up by its digest: a 16+ character random token needs no slow hash to resist guessing. */
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const bodyError = (field: string, message: string) =>
  new ValidationError(message, [{ path: `body.${field}`, message }]);

function present(row: TvSettingsRow): TvSettings {
  const { tl_token_hash: hash, tl_token_hint: hint, ...rest } = row;
  return { ...rest, tl_token_set: hash !== null, tl_token_hint: hint };
}

/** Rooms are checked a few at a time: a full mapping is a couple of thousand look-ups by primary key. */
const ROOM_CHECKS_AT_ONCE = 20;

export function createTvSettings(db: Db, config: Pick<Config, 'allowPrivateOutbound'>, deps: TvSettingsDependencies) {
  async function assertOwnRooms(hotelId: string, mapping: RoomNumberMap): Promise<void> {
    const ids = Object.keys(mapping);
    for (let start = 0; start < ids.length; start += ROOM_CHECKS_AT_ONCE) {
      const batch = ids.slice(start, start + ROOM_CHECKS_AT_ONCE);
      const found = await Promise.all(batch.map((id) => deps.rooms.findRoom(hotelId, id)));
      const missing = batch.find((_, index) => !found[index]);
      if (missing) throw bodyError('netup_room_number', tvMessages.roomNotFound(missing));
    }
  }

  async function assertOwnWorkstation(hotelId: string, id: string): Promise<void> {
    try {
      await deps.agents.workstations.get(hotelId, id);
    } catch (error) {
      if (error instanceof NotFoundError) throw bodyError('agent_workstation_id', tvMessages.workstationNotFound);
      throw error;
    }
  }

  /** What the row will be must hold together: a desk for `agent`, a server to enable, a public one for `direct`. */
  async function assertConsistent(next: TvSettingsRow, input: TvSettingsInput): Promise<void> {
    if (next.connection_type === 'agent' && !next.agent_workstation_id)
      throw bodyError('agent_workstation_id', tvMessages.workstationRequired);
    if (next.enabled && !next.server_url) throw bodyError('server_url', tvMessages.serverRequired);
    // Through a desk's agent a LAN address is the point; straight from here it would reach our own network.
    const urlMatters = input.server_url !== undefined || input.connection_type !== undefined;
    if (next.connection_type === 'direct' && next.server_url && urlMatters) {
      await assertPublicDestination(next.server_url, {
        allowPrivate: config.allowPrivateOutbound,
        allowUnresolved: true,
      });
    }
  }

  return {
    row: (hotelId: string) => settingsRepository.get(db, hotelId),

    get: async (hotelId: string): Promise<TvSettings> => present(await settingsRepository.get(db, hotelId)),

    async update(hotelId: string, input: TvSettingsInput, expected?: ExpectedVersion): Promise<TvSettings> {
      if (input.netup_room_number) await assertOwnRooms(hotelId, input.netup_room_number);
      if (input.agent_workstation_id) await assertOwnWorkstation(hotelId, input.agent_workstation_id);
      return db.transaction(async (trx) => {
        const current = await settingsRepository.get(trx, hotelId, { forUpdate: true });
        const { tl_token: token, netup_room_number: mapping, ...plain } = input;
        const changes: Partial<TvSettingsRow> = {
          ...plain,
          ...(mapping && { netup_room_number: JSON.stringify(mapping) as unknown as RoomNumberMap }),
          ...(token !== undefined && {
            tl_token_hash: token === null ? null : tokenHash(token),
            tl_token_hint: token === null ? null : `…${token.slice(-4)}`,
          }),
        };
        await assertConsistent(
          { ...current, ...changes, netup_room_number: mapping ?? current.netup_room_number },
          input,
        );
        await refusalsAs(
          {
            unique: {
              tv_settings_tl_token_hash_unique: () => new ConflictError(tvMessages.tokenTaken, 'tv_token_taken'),
            },
          },
          () => settingsRepository.update(trx, hotelId, changes, expected),
        );
        return present(await settingsRepository.get(trx, hotelId));
      });
    },

    /** The hotel whose TV system presents this token, if any. */
    byToken: (token: string) => settingsRepository.byTokenHash(db, tokenHash(token)),
  };
}

export type TvSettingsService = ReturnType<typeof createTvSettings>;
