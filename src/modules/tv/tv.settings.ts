import type { SharedSettings } from '../../platform/config';
import { sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { NotFoundError, ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { issueSecret, secretHint, secretMatches } from '../../platform/issued-secrets';
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

/**
 * What a vendor's token is kept as: the digest of the hotel and the token, so the same token in two hotels is two
 * digests and nothing ever compares one hotel's token with another's (no answer can say another hotel holds it).
 */
const vendorKeyed = (hotelId: string, token: string) => `${hotelId}:${token}`;

/** The least randomness of a token typed in: what a guesser of the hotel's polls would have to get through. */
const MIN_TOKEN_BITS = 128;
const MIN_DISTINCT_CHARACTERS = 10;
const CHARACTER_CLASSES = [/[0-9]/, /[a-z]/, /[A-Z]/, /[^0-9a-zA-Z]/];
const CLASS_SIZES = [10, 26, 26, 32];

/**
 * A generous estimate of a typed token's randomness: its length times log2 of the alphabet its character classes span
 * (32 hex digits: 165 bits), and nothing for a token of a few characters repeated. A vendor's token of 128 random bits
 * in any usual spelling passes; a word with a year does not.
 */
function tokenBits(token: string): number {
  if (new Set(token).size < MIN_DISTINCT_CHARACTERS) return 0;
  const alphabet = CHARACTER_CLASSES.reduce(
    (sum, pattern, index) => sum + (pattern.test(token) ? CLASS_SIZES[index] : 0),
    0,
  );
  return token.length * Math.log2(alphabet);
}

/** Whether `token` is the one the hotel's TV system was given, whichever kind it holds, in constant time. */
export function tokenMatches(row: TvSettingsRow, token: string | undefined): boolean {
  const given = token !== undefined && row.tl_token_kind === 'vendor' ? vendorKeyed(row.hotel_id, token) : token;
  return secretMatches(given, row.tl_token_hash);
}

const bodyError = (field: string, message: string) =>
  new ValidationError(message, [{ path: `body.${field}`, message }]);

function present(row: TvSettingsRow): TvSettings {
  const { tl_token_hash: hash, ...rest } = row;
  return { ...rest, tl_token_set: hash !== null };
}

/** Rooms are checked a few at a time: a full mapping is a couple of thousand look-ups by primary key. */
const ROOM_CHECKS_AT_ONCE = 20;

export function createTvSettings(
  db: Db,
  config: Pick<SharedSettings, 'allowPrivateOutbound'>,
  deps: TvSettingsDependencies,
) {
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

    find: (hotelId: string) => settingsRepository.find(db, hotelId),

    get: async (hotelId: string): Promise<TvSettings> => present(await settingsRepository.get(db, hotelId)),

    async update(hotelId: string, input: TvSettingsInput, expected?: ExpectedVersion): Promise<TvSettings> {
      if (input.tl_token && tokenBits(input.tl_token) < MIN_TOKEN_BITS)
        throw bodyError('tl_token', tvMessages.tokenWeak);
      if (input.netup_room_number) await assertOwnRooms(hotelId, input.netup_room_number);
      if (input.agent_workstation_id) await assertOwnWorkstation(hotelId, input.agent_workstation_id);
      return db.transaction(async (trx) => {
        const current = await settingsRepository.get(trx, hotelId, { forUpdate: true });
        const { tl_token: token, netup_room_number: mapping, ...plain } = input;
        const changes: Partial<TvSettingsRow> = {
          ...plain,
          ...(mapping && { netup_room_number: JSON.stringify(mapping) as unknown as RoomNumberMap }),
          ...(token !== undefined && {
            tl_token_hash: token === null ? null : sha256Hex(vendorKeyed(hotelId, token)),
            tl_token_hint: token === null ? null : secretHint(token),
            tl_token_kind: token === null ? null : 'vendor',
            tl_token_created_at: token === null ? null : new Date(),
          }),
        };
        await assertConsistent(
          { ...current, ...changes, netup_room_number: mapping ?? current.netup_room_number },
          input,
        );
        await settingsRepository.update(trx, hotelId, changes, expected);
        return present(await settingsRepository.get(trx, hotelId));
      });
    },

    /** A new token made here (the one before stops working at once); answered this once, kept as its digest. */
    async newToken(hotelId: string) {
      const issued = issueSecret();
      await settingsRepository.update(db, hotelId, {
        tl_token_hash: issued.sha256,
        tl_token_hint: issued.hint,
        tl_token_kind: 'issued',
        tl_token_created_at: issued.createdAt,
      });
      return { tl_token: issued.secret, tl_token_hint: issued.hint, tl_token_created_at: issued.createdAt };
    },

    /** The hotel holding this issued token, if any (a poll that names no hotel). */
    byIssuedToken: (token: string) => settingsRepository.byIssuedTokenHash(db, sha256Hex(token)),
  };
}

export type TvSettingsService = ReturnType<typeof createTvSettings>;
