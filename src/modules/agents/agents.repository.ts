import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { atVersion } from '../../platform/db/version';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { DeviceInput, WorkstationDevice, WorkstationInput, WorkstationRow } from './agents.types';

const BY_NAME: SortKey[] = [
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

/** What replaces a workstation's credential: a new one (pairing) or none (revocation). */
export interface CredentialChange {
  credential_hash: string | null;
  credential_issued_at: Date | null;
  agent_version?: string;
  machine_name?: string;
}

export const workstationsRepository = {
  ...hotelTable<WorkstationRow, WorkstationInput>('workstations'),

  async list(db: DbOrTrx, hotelId: string, page: PageRequest): Promise<Page<WorkstationRow>> {
    return pageOf(db, db('workstations').select('*').where({ hotel_id: hotelId }), BY_NAME, page);
  },

  /** Replaces any code the workstation had; not a change staff made to it, so its version stays. */
  async setPairCode(db: DbOrTrx, hotelId: string, id: string, codeHash: string, expiresAt: Date): Promise<boolean> {
    const changed = await db('workstations')
      .where({ hotel_id: hotelId, id })
      .update({ pair_code_hash: codeHash, pair_code_expires_at: expiresAt });
    return changed > 0;
  },

  /** The workstation whose unexpired code this is, locked: of two agents sending one code, the second finds none. */
  async lockByPairCode(db: DbOrTrx, codeHash: string): Promise<WorkstationRow | undefined> {
    return db<WorkstationRow>('workstations')
      .where({ pair_code_hash: codeHash })
      .where('pair_code_expires_at', '>', db.fn.now())
      .forUpdate()
      .first();
  },

  async lock(db: DbOrTrx, hotelId: string, id: string): Promise<WorkstationRow | undefined> {
    return db<WorkstationRow>('workstations').where({ hotel_id: hotelId, id }).forUpdate().first();
  },

  /** The old credential and any pending code stop working in the same statement; the agent is offline until it connects. */
  async replaceCredential(db: DbOrTrx, id: string, change: CredentialChange): Promise<WorkstationRow> {
    const [row] = await db('workstations')
      .where({ id })
      .update({ ...change, pair_code_hash: null, pair_code_expires_at: null, online: false, updated_at: db.fn.now() })
      .returning('*');
    return row as WorkstationRow;
  },

  async findByCredential(db: DbOrTrx, credentialHash: string): Promise<WorkstationRow | undefined> {
    return db<WorkstationRow>('workstations').where({ credential_hash: credentialHash }).first();
  },

  /**
   * Presence as the agent channel sees it; the hotel of the workstation when `online` changed (only a paired one comes
   * online). Not an edit by staff: the version stays, so a desk's pending change is not refused for a heartbeat.
   */
  async setPresence(
    db: DbOrTrx,
    id: string,
    presence: { online: boolean; agent_version?: string },
  ): Promise<{ hotel_id: string; online_changed: boolean } | undefined> {
    const { rows } = await db.raw<{ rows: { hotel_id: string; online_changed: boolean }[] }>(
      `UPDATE workstations w SET online = :online, last_seen_at = now(),
              agent_version = coalesce(:agentVersion, w.agent_version)
         FROM (SELECT id, online FROM workstations WHERE id = :id FOR UPDATE) before
        WHERE w.id = before.id AND (NOT :online OR w.credential_hash IS NOT NULL)
        RETURNING w.hotel_id, before.online <> w.online AS online_changed`,
      { id, online: presence.online, agentVersion: presence.agent_version ?? null },
    );
    return rows[0];
  },
};

export const devicesRepository = {
  async list(db: DbOrTrx, hotelId: string, workstationId: string, page: PageRequest): Promise<Page<WorkstationDevice>> {
    const query = db('workstation_devices').select('*').where({ hotel_id: hotelId, workstation_id: workstationId });
    return pageOf(db, query, BY_NAME, page);
  },

  async find(db: DbOrTrx, hotelId: string, workstationId: string, id: string) {
    return db<WorkstationDevice>('workstation_devices')
      .where({ hotel_id: hotelId, workstation_id: workstationId, id })
      .first();
  },

  async insert(db: DbOrTrx, hotelId: string, workstationId: string, input: DeviceInput): Promise<WorkstationDevice> {
    const [row] = await db('workstation_devices')
      .insert({ ...input, hotel_id: hotelId, workstation_id: workstationId })
      .returning('*');
    return row as WorkstationDevice;
  },

  async update(
    db: DbOrTrx,
    hotelId: string,
    workstationId: string,
    id: string,
    input: DeviceInput,
    expected?: ExpectedVersion,
  ): Promise<WorkstationDevice | undefined> {
    const [row] = await db('workstation_devices')
      .where({ hotel_id: hotelId, workstation_id: workstationId, id })
      .modify(atVersion(expected))
      .update({ ...input, updated_at: db.fn.now() })
      .returning('*');
    return row as WorkstationDevice | undefined;
  },

  async delete(db: DbOrTrx, hotelId: string, workstationId: string, id: string, expected?: ExpectedVersion) {
    const deleted = await db('workstation_devices')
      .where({ hotel_id: hotelId, workstation_id: workstationId, id })
      .modify(atVersion(expected))
      .delete();
    return deleted > 0;
  },
};
