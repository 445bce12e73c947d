import { sha256Hex } from '../../platform/crypto';
import { refusalsAs } from '../../platform/db/base-model';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import { workstationOffline } from './agents.events';
import { agentMessages, PAIR_CODE_TTL_MINUTES } from './agents.messages';
import { newPairCode } from './agents.pair-code';
import { AGENT_PRESENCE_STALE_MS } from './agents.protocol';
import { workstationsRepository, type CredentialChange } from './agents.repository';
import type { Workstation, WorkstationInput, WorkstationRow } from './agents.types';

/**
 * Online while its agent's connection lives; a presence its replica stopped refreshing (a crash leaves no goodbye) reads
 * as offline once stale.
 */
export function isAgentPresent(row: Pick<WorkstationRow, 'online' | 'last_seen_at'>, now = Date.now()): boolean {
  return row.online && row.last_seen_at !== null && now - row.last_seen_at.getTime() < AGENT_PRESENCE_STALE_MS;
}

export function presentWorkstation(row: WorkstationRow): Workstation {
  const {
    credential_hash: credential,
    pair_code_hash: _code,
    pair_code_expires_at: _expiry,
    connection_id: _connection,
    ...visible
  } = row;
  return { ...visible, online: isAgentPresent(row), paired: credential !== null };
}

/**
 * Puts `change` in place of the locked workstation's credential: whoever held the old one is refused from now on, and
 * staff see it go offline if it was online.
 */
export async function replaceCredential(trx: DbOrTrx, locked: WorkstationRow, change: CredentialChange) {
  const row = await workstationsRepository.replaceCredential(trx, locked.id, change);
  if (locked.online) await workstationOffline.publish(trx, row.hotel_id, { workstation_id: row.id });
  return row;
}

const notFound = () => new NotFoundError(agentMessages.workstationNotFound);

/** The computers of a hotel's desks, as staff manage them: CRUD, pair codes for their agents, revocation. */
export function createWorkstations(db: Db) {
  const boundsChecked = <T>(write: () => Promise<T>) =>
    refusalsAs({ check: { workstations_values_check: () => new ValidationError(agentMessages.outOfBounds) } }, write);

  const missingOrStaleWorkstation = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(expected, () => workstationsRepository.find(db, hotelId, id), notFound());

  return {
    list: async (hotelId: string, page: PageRequest) =>
      mapPage(await workstationsRepository.list(db, hotelId, page), presentWorkstation),

    async get(hotelId: string, id: string): Promise<Workstation> {
      const row = await workstationsRepository.find(db, hotelId, id);
      if (!row) throw notFound();
      return presentWorkstation(row);
    },

    create: async (hotelId: string, input: WorkstationInput) =>
      presentWorkstation(await boundsChecked(() => workstationsRepository.insert(db, hotelId, input))),

    async update(hotelId: string, id: string, input: WorkstationInput, expected?: ExpectedVersion) {
      const row = await boundsChecked(() => workstationsRepository.update(db, hotelId, id, input, expected));
      if (!row) throw await missingOrStaleWorkstation(hotelId, id, expected);
      return presentWorkstation(row);
    },

    /** Its devices go with it, and so does its credential: the agent is refused from then on. */
    async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      const deleted = await workstationsRepository.delete(db, hotelId, id, expected);
      if (!deleted) throw await missingOrStaleWorkstation(hotelId, id, expected);
    },

    /** A new code for the agent to pair with, shown once; any earlier code of the workstation stops working. */
    async issuePairCode(hotelId: string, id: string): Promise<{ pair_code: string; expires_at: Date }> {
      const pairCode = newPairCode();
      const expiresAt = new Date(Date.now() + PAIR_CODE_TTL_MINUTES * 60_000);
      if (!(await workstationsRepository.setPairCode(db, hotelId, id, sha256Hex(pairCode), expiresAt))) {
        throw notFound();
      }
      return { pair_code: pairCode, expires_at: expiresAt };
    },

    /** Voids the credential (and any pending pair code) at once; the workstation keeps its devices. */
    revoke: (hotelId: string, id: string): Promise<Workstation> =>
      db.transaction(async (trx) => {
        const locked = await workstationsRepository.lock(trx, hotelId, id);
        if (!locked) throw notFound();
        const revoked = { credential_hash: null, credential_issued_at: null };
        return presentWorkstation(await replaceCredential(trx, locked, revoked));
      }),
  };
}

export type WorkstationsService = ReturnType<typeof createWorkstations>;
