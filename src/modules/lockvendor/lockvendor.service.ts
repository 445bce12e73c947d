import type { LockvendorConfig } from './lockvendor.env';
import type { TTLockCredentials, TTLockHotelInfo, TTLockLock } from '../../integrations/ttlock';
import type { Db } from '../../platform/db/knex';
import { BusinessRuleError } from '../../platform/errors';
import { createLockCloud } from './lockvendor.cloud';
import { createLockConfigs } from './lockvendor.config';
import { lockMessages } from './lockvendor.messages';
import { configRepository, roomLocksRepository } from './lockvendor.repository';
import { createRoomLocks, type RoomFinder } from './lockvendor.room-locks';
import { normalizeMac } from './lockvendor.schemas';
import type { CloudLock, RoomLock } from './lockvendor.types';

export interface LockvendorDependencies {
  rooms: RoomFinder;
}

function withMapping(lock: TTLockLock, mapping: RoomLock | undefined): CloudLock {
  return {
    lock_id: lock.lockId,
    lock_name: lock.lockName,
    lock_alias: lock.lockAlias,
    lock_mac: normalizeMac(lock.lockMac),
    battery: lock.electricQuantity ?? null,
    has_gateway: lock.hasGateway ?? null,
    build_no: lock.buildingNumber ?? null,
    floor_no: lock.floorNumber ?? null,
    room_id: mapping?.room_id ?? null,
    room_lock_id: mapping?.id ?? null,
  };
}

/** The hotel's door-lock cloud (TTLock): its settings, the session with it, and which lock is on which door. */
export function createLockvendorService(
  db: Db,
  config: Pick<LockvendorConfig, 'encryption' | 'ttlock'>,
  deps: LockvendorDependencies,
) {
  const cloud = createLockCloud(db, config);

  async function assertEnabled(hotelId: string): Promise<void> {
    if (!(await configRepository.get(db, hotelId)).enabled) {
      throw new BusinessRuleError(lockMessages.disabled, [], 'lock_vendor_disabled');
    }
  }

  return {
    config: createLockConfigs(db, config.encryption),
    roomLocks: createRoomLocks(db, deps.rooms),
    signIn: cloud.signIn,
    test: cloud.test,
    findApiServer: cloud.findApiServer,

    /** The account's locks from the cloud, each with the room our mapping puts it on (by MAC). */
    async locks(hotelId: string): Promise<CloudLock[]> {
      const locks = await cloud.allLocks(hotelId);
      const mappings = new Map((await roomLocksRepository.all(db, hotelId)).map((row) => [row.lock_mac, row]));
      return locks.map((lock) => withMapping(lock, mappings.get(normalizeMac(lock.lockMac))));
    },

    /**
     * For card issuance: a valid access token of the hotel's account (refreshed or signed in again as needed). 422
     * `lock_vendor_disabled` while the hotel has the locks switched off, `lock_vendor_not_configured` without an
     * account, `lock_vendor_refused` when TTLock refuses it; 503 `lock_vendor_unavailable` when TTLock does not answer.
     */
    async credentials(hotelId: string): Promise<TTLockCredentials> {
      await assertEnabled(hotelId);
      return cloud.withCredentials(hotelId, async (credentials) => credentials);
    },

    /** For card issuance: the hotel's hotelInfo for the encoder, fresh (about 10 minutes); the same refusals. */
    async hotelInfo(hotelId: string): Promise<TTLockHotelInfo> {
      await assertEnabled(hotelId);
      return cloud.hotelInfo(hotelId);
    },
  };
}

export type LockvendorService = ReturnType<typeof createLockvendorService>;
