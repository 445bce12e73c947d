import { randomHexToken, sha256Hex } from '../../platform/crypto';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { HotelsService } from '../hotels';
import { workstationOffline, workstationOnline } from './agents.events';
import { invalidPairCode } from './agents.messages';
import { workstationsRepository, type PresenceChange } from './agents.repository';
import { replaceCredential } from './agents.workstations';
import type { AgentIdentity, PairRequest } from './agents.types';

/** 32 random bytes: a credential is never guessed, so a hash lookup is all it takes to check one. */
const CREDENTIAL_BYTES = 32;

/**
 * The agent's side: pairing a workstation with a code staff were shown, and what the agent channel asks when an agent
 * connects, comes and goes. A credential opens only that channel: it is no access token, and no other route reads it.
 */
export function createAgentChannel(db: Db, hotels: Pick<HotelsService, 'find'>) {
  async function publishPresence(
    trx: DbOrTrx,
    workstationId: string,
    change: PresenceChange | undefined,
    online: boolean,
  ) {
    if (change?.online_changed) {
      const event = online ? workstationOnline : workstationOffline;
      await event.publish(trx, change.hotel_id, { workstation_id: workstationId });
    }
    return change !== undefined;
  }

  return {
    /**
     * Exchanges an unexpired pair code, once, for the workstation's new credential (the old one stops working). An
     * unknown, used or expired code gets one answer, so a guesser learns nothing.
     */
    pair: (request: PairRequest) =>
      db.transaction(async (trx) => {
        const locked = await workstationsRepository.lockByPairCode(trx, sha256Hex(request.pair_code));
        if (!locked) throw invalidPairCode();
        const credential = randomHexToken(CREDENTIAL_BYTES);
        await replaceCredential(trx, locked, {
          credential_hash: sha256Hex(credential),
          credential_issued_at: new Date(),
          agent_version: request.agent_version,
          machine_name: request.machine_name,
        });
        const hotel = await hotels.find(locked.hotel_id, trx);
        return { workstation_id: locked.id, hotel_slug: hotel!.slug, credential };
      }),

    /**
     * Whose credential this is; undefined for one replaced, revoked or never issued, or of an inactive hotel. Looked up
     * by its sha256 rather than compared: the lookup's timing can only tell about hashes, and learning a hash's prefix
     * gets a guesser no closer to a credential that hashes to it, so no constant-time comparison is needed.
     */
    async authenticate(credential: string): Promise<AgentIdentity | undefined> {
      const workstation = await workstationsRepository.findByCredential(db, sha256Hex(credential));
      if (!workstation) return undefined;
      const hotel = await hotels.find(workstation.hotel_id);
      if (!hotel?.is_active) return undefined;
      return { workstationId: workstation.id, hotelId: hotel.id, hotelSlug: hotel.slug };
    },

    /** This connection's agent said hello (reporting its version); false when the workstation is gone or unpaired. */
    markOnline: (
      workstationId: string,
      connectionId: string,
      reported: { agent_version?: string; machine_name?: string },
    ) =>
      db.transaction(async (trx) => {
        const change = await workstationsRepository.markOnline(trx, workstationId, connectionId, reported);
        if (change) await workstationsRepository.announceConnection(trx, workstationId, connectionId);
        return publishPresence(trx, workstationId, change, true);
      }),

    /** This connection ended; nothing changes when a newer connection has taken the workstation over. */
    markOffline: (workstationId: string, connectionId: string) =>
      db.transaction(async (trx) =>
        publishPresence(
          trx,
          workstationId,
          await workstationsRepository.markOffline(trx, workstationId, connectionId),
          false,
        ),
      ),

    /** The connection is alive (a heartbeat); false when it is no longer the workstation's. */
    touch: (workstationId: string, connectionId: string) =>
      workstationsRepository.touch(db, workstationId, connectionId),
  };
}
