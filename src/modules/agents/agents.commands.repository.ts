import { storableJsonText } from '../../platform/db/jsonb';
import type { DbOrTrx } from '../../platform/db/knex';
import type { AgentCommandRow, CommandOutcome } from './agents.types';

/** Where a command for a workstation is announced; the replica holding that agent's socket sends it. */
export const AGENT_COMMANDS_CHANNEL = 'agent_commands';
/** Where a reply is announced, for a staff request waiting on another replica. */
export const AGENT_REPLIES_CHANNEL = 'agent_replies';
/** Where a replaced or voided credential is announced (by a trigger), so its open connection is closed. */
export const AGENT_REVOCATIONS_CHANNEL = 'agent_revocations';
/** Where a new connection of a workstation is announced, so an older one elsewhere is closed. */
export const AGENT_CONNECTIONS_CHANNEL = 'agent_connections';

/** Pending commands are read and sent this many at a time. */
export const PENDING_BATCH = 500;

export interface NewCommand {
  id?: string;
  hotel_id: string;
  workstation_id: string;
  type: string;
  payload: Record<string, unknown>;
  expires_at: Date;
}

export interface DurableCommand extends NewCommand {
  key: string;
  task_token: string;
  workflow_id: string;
}

async function announce(db: DbOrTrx, workstationId: string, commandId: string): Promise<void> {
  await db.raw('SELECT pg_notify(?, ?)', [AGENT_COMMANDS_CHANNEL, `${workstationId}:${commandId}`]);
}

export const commandsRepository = {
  /** A request/response command; announced at once (the caller is not in a transaction). */
  async insertQuick(db: DbOrTrx, command: NewCommand): Promise<AgentCommandRow> {
    const [row] = await db('agent_commands')
      .insert({ ...command, durable: false })
      .returning('*');
    await announce(db, command.workstation_id, row.id);
    return row as AgentCommandRow;
  },

  /**
   * The command of this business operation, recorded on its first attempt; a later attempt only takes over the wait
   * (its own task token). Announced again while pending, so a desk that missed it gets it.
   */
  async submitDurable(trx: DbOrTrx, command: DurableCommand): Promise<AgentCommandRow> {
    const { rows } = await trx.raw<{ rows: AgentCommandRow[] }>(
      `INSERT INTO agent_commands (hotel_id, workstation_id, key, type, payload, durable, task_token, workflow_id,
                                   expires_at)
       VALUES (:hotel_id, :workstation_id, :key, :type, :payload, true, :task_token, :workflow_id, :expires_at)
       ON CONFLICT (hotel_id, key) DO UPDATE
          SET task_token = EXCLUDED.task_token, workflow_id = EXCLUDED.workflow_id
       RETURNING *`,
      { ...command, payload: JSON.stringify(command.payload) },
    );
    const row = rows[0];
    if (row.status === 'pending') await announce(trx, row.workstation_id, row.id);
    return row;
  },

  async find(db: DbOrTrx, workstationId: string, id: string): Promise<AgentCommandRow | undefined> {
    return db<AgentCommandRow>('agent_commands').where({ workstation_id: workstationId, id }).first();
  },

  async findById(db: DbOrTrx, id: string): Promise<AgentCommandRow | undefined> {
    return db<AgentCommandRow>('agent_commands').where({ id }).first();
  },

  /** What a (re)connecting agent is sent: its unexpired pending commands, oldest first, a batch after `after`. */
  async pending(db: DbOrTrx, workstationId: string, after?: AgentCommandRow): Promise<AgentCommandRow[]> {
    return db<AgentCommandRow>('agent_commands')
      .where({ workstation_id: workstationId, status: 'pending' })
      .where('expires_at', '>', db.fn.now())
      .modify((query) => {
        // The boundary row's own timestamp (microseconds): a JS Date would drop them and repeat that millisecond.
        if (after)
          query.whereRaw('(created_at, id) > (SELECT created_at, id FROM agent_commands WHERE id = ?)', [after.id]);
      })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .limit(PENDING_BATCH);
  },

  async markDelivered(db: DbOrTrx, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await db('agent_commands')
      .whereIn('id', ids)
      .update({ delivered_at: db.fn.now(), deliveries: db.raw('deliveries + 1') });
  },

  /** The first reply settles the command; a later one (a redelivery answered again) finds it settled. */
  async complete(
    trx: DbOrTrx,
    workstationId: string,
    id: string,
    outcome: CommandOutcome,
  ): Promise<AgentCommandRow | undefined> {
    const [row] = await trx('agent_commands')
      .where({ workstation_id: workstationId, id, status: 'pending' })
      .update({
        status: outcome.ok ? 'succeeded' : 'failed',
        // The reply as the agent sent it, even with U+0000 in it (a driver's port name): never lost for its content.
        result: outcome.ok ? storableJsonText(outcome.result) : null,
        error: outcome.ok ? null : storableJsonText(outcome.error),
        completed_at: trx.fn.now(),
      })
      .returning('*');
    if (row) await trx.raw('SELECT pg_notify(?, ?)', [AGENT_REPLIES_CHANNEL, id]);
    return row as AgentCommandRow | undefined;
  },

  /** A request/response command nobody waits for any more: not sent to an agent that connects later. */
  async expire(db: DbOrTrx, id: string): Promise<void> {
    await db('agent_commands')
      .where({ id, status: 'pending' })
      .update({ status: 'expired', completed_at: db.fn.now() });
  },

  /** Finished commands are kept a week for diagnosis (and for the agent's de-duplication window). */
  async purgeFinished(db: DbOrTrx, keepDays = 7): Promise<number> {
    return db('agent_commands')
      .where('completed_at', '<', db.raw('now() - make_interval(days => ?)', [keepDays]))
      .delete();
  },
};
