import { hotelTable } from '../../platform/db/hotel-table';
import { AGENT_CONNECTIONS_CHANNEL } from './agents.commands.repository';
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

export interface PresenceChange {
  hotel_id: string;
  online_changed: boolean;
}

async function presenceUpdate(
  db: DbOrTrx,
  assignments: string,
  condition: string,
  changed: string,
  bindings: Record<string, string | null>,
): Promise<PresenceChange | undefined> {
  const { rows } = await db.raw<{ rows: PresenceChange[] }>(
    `UPDATE workstations w SET ${assignments}, last_seen_at = now()
       FROM (SELECT id, online FROM workstations WHERE id = :id FOR UPDATE) before
      WHERE w.id = before.id AND ${condition}
      RETURNING w.hotel_id, ${changed} AS online_changed`,
    bindings,
  );
  return rows[0];
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
      .update({
        ...change,
        pair_code_hash: null,
        pair_code_expires_at: null,
        online: false,
        connection_id: null,
        updated_at: db.fn.now(),
      })
      .returning('*');
    return row as WorkstationRow;
  },

  async findByCredential(db: DbOrTrx, credentialHash: string): Promise<WorkstationRow | undefined> {
    return db<WorkstationRow>('workstations').where({ credential_hash: credentialHash }).first();
  },

  /**
   * The agent of this connection is online (only a paired workstation comes online); the hotel, and whether `online`
   * changed. Presence is not an edit by staff: the version stays, so a desk's pending change is not refused for it.
   */
  async markOnline(
    db: DbOrTrx,
    id: string,
    connectionId: string,
    reported: { agent_version?: string; machine_name?: string },
  ): Promise<PresenceChange | undefined> {
    return presenceUpdate(
      db,
      `online = true, connection_id = :connectionId,
       agent_version = coalesce(:agentVersion, w.agent_version), machine_name = coalesce(:machineName, w.machine_name)`,
      'w.credential_hash IS NOT NULL',
      'NOT before.online',
      {
        id,
        connectionId,
        agentVersion: reported.agent_version ?? null,
        machineName: reported.machine_name ?? null,
      },
    );
  },

  /** Offline, unless a newer connection has taken the workstation over meanwhile. */
  async markOffline(db: DbOrTrx, id: string, connectionId: string): Promise<PresenceChange | undefined> {
    return presenceUpdate(
      db,
      'online = false, connection_id = NULL',
      'w.connection_id = :connectionId',
      'before.online',
      {
        id,
        connectionId,
      },
    );
  },

  /** Workstations whose agent is connected and on another version than `version` (at most 500). */
  async onlineOutdated(db: DbOrTrx, hotelId: string, version: string, staleMs: number): Promise<WorkstationRow[]> {
    return db<WorkstationRow>('workstations')
      .where({ hotel_id: hotelId, online: true })
      .where('last_seen_at', '>', db.raw('now() - make_interval(secs => ?)', [staleMs / 1000]))
      .whereRaw('agent_version IS DISTINCT FROM ?', [version])
      .orderBy('name')
      .limit(500);
  },

  /** Tells every replica this connection now serves the workstation: an older one elsewhere is closed. */
  async announceConnection(db: DbOrTrx, id: string, connectionId: string): Promise<void> {
    await db.raw('SELECT pg_notify(?, ?)', [AGENT_CONNECTIONS_CHANNEL, `${id}:${connectionId}`]);
  },

  /** The connection is alive; false when it is no longer the workstation's (replaced or revoked). */
  async touch(db: DbOrTrx, id: string, connectionId: string): Promise<boolean> {
    const touched = await db('workstations')
      .where({ id, connection_id: connectionId })
      .update({ last_seen_at: db.fn.now() });
    return touched > 0;
  },
};

export const devicesRepository = {
  async list(db: DbOrTrx, hotelId: string, workstationId: string, page: PageRequest): Promise<Page<WorkstationDevice>> {
    const query = db('workstation_devices').select('*').where({ hotel_id: hotelId, workstation_id: workstationId });
    return pageOf(db, query, BY_NAME, page);
  },

  /** The desk's first device of that type (by name), e.g. its fiscal register. */
  async firstOfType(db: DbOrTrx, hotelId: string, workstationId: string, type: WorkstationDevice['type']) {
    return db<WorkstationDevice>('workstation_devices')
      .where({ hotel_id: hotelId, workstation_id: workstationId, type })
      .orderBy(['name', 'id'])
      .first();
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
