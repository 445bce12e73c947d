import { randomUUID } from 'node:crypto';
import { fromStoredJson } from '../../platform/db/jsonb';
import type { Db } from '../../platform/db/knex';
import { enqueueOutbox } from '../../platform/db/outbox';
import type { PgListener } from '../../platform/db/pg-listener';
import { BadGatewayError, ConflictError, GatewayTimeoutError, NotFoundError } from '../../platform/errors';
import { AGENT_COMMAND_REFUSED, type AgentCommandRequest } from '../../../workflows/contracts/agents';
import { AGENT_REPLIES_CHANNEL, commandsRepository } from './agents.commands.repository';
import { agentErrorText, agentMessages } from './agents.messages';
import { workstationsRepository } from './agents.repository';
import type { AgentCommandRow, CommandOutcome } from './agents.types';
import { isAgentPresent } from './agents.workstations';

/** How long a staff request waits for a quick command's reply (ping, list ports...). */
export const QUICK_COMMAND_TIMEOUT_MS = 10_000;

/** What a durable command's attempt finds: settled already, or waiting for the agent (the activity completes later). */
export type DurableSubmission = { settled: true; outcome: CommandOutcome } | { settled: false };

const outcomeOf = (row: AgentCommandRow): CommandOutcome | undefined => {
  if (row.status === 'succeeded') return { ok: true, result: fromStoredJson(row.result) ?? {} };
  if (row.status === 'failed' && row.error) return { ok: false, error: fromStoredJson(row.error) };
  return undefined;
};

/**
 * Commands to agents, from whoever asks (a staff request, a workflow's activity) to whichever replica holds the agent's
 * socket, and replies back: both travel through the `agent_commands` table and PostgreSQL notifications.
 */
export function createAgentCommands(db: Db, listener: PgListener | undefined) {
  /** Staff requests of this process waiting for a reply, by command id. */
  const waiters = new Map<string, (row: AgentCommandRow) => void>();
  let subscribed = false;

  async function settleWaiter(id: string): Promise<void> {
    const waiter = waiters.get(id);
    if (!waiter) return;
    const row = await commandsRepository.findById(db, id);
    if (row && row.status !== 'pending') waiter(row);
  }

  function listenForReplies(): PgListener {
    if (!listener) throw new Error('quick agent commands need the API process LISTEN connection');
    if (!subscribed) {
      subscribed = true;
      listener.subscribe(AGENT_REPLIES_CHANNEL, {
        onNotification: (id) => void settleWaiter(id).catch(() => undefined),
        // Replies announced while the connection was down were missed: look each waiting command up.
        onListening: () => {
          for (const id of waiters.keys()) void settleWaiter(id).catch(() => undefined);
        },
      });
    }
    return listener;
  }

  return {
    /**
     * Sends a quick command to an online workstation of the hotel and waits for its reply: 404 unknown workstation,
     * 409 offline, 504 no reply in time, 502 the agent's refusal (in words staff understand, with the agent's own).
     */
    async ask(
      hotelId: string,
      workstationId: string,
      type: string,
      payload: Record<string, unknown>,
      timeoutMs = QUICK_COMMAND_TIMEOUT_MS,
    ): Promise<Record<string, unknown>> {
      const workstation = await workstationsRepository.find(db, hotelId, workstationId);
      if (!workstation) throw new NotFoundError(agentMessages.workstationNotFound);
      if (!isAgentPresent(workstation))
        throw new ConflictError(agentMessages.workstationOffline, 'workstation_offline');
      await listenForReplies().ready();
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const replied = new Promise<AgentCommandRow | undefined>((resolve) => {
        waiters.set(id, resolve);
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      try {
        await commandsRepository.insertQuick(db, {
          id,
          hotel_id: hotelId,
          workstation_id: workstationId,
          type,
          payload,
          expires_at: new Date(Date.now() + timeoutMs),
        });
        const row = await replied;
        const outcome = row && outcomeOf(row);
        if (!outcome) {
          await commandsRepository.expire(db, id);
          throw new GatewayTimeoutError('agent_timeout', agentMessages.agentTimeout);
        }
        if (!outcome.ok) {
          throw new BadGatewayError('agent_command_failed', agentErrorText(outcome.error), {
            agent_error: outcome.error,
          });
        }
        return outcome.result;
      } finally {
        clearTimeout(timer);
        waiters.delete(id);
      }
    },

    /**
     * Records (first attempt) or takes over (later attempts) the durable command of a business operation; settled when
     * the agent has already answered it. Undefined when the workstation no longer exists.
     */
    async submitDurable(
      request: AgentCommandRequest,
      attempt: { taskToken: string; workflowId: string },
    ): Promise<DurableSubmission | undefined> {
      const workstation = await workstationsRepository.find(db, request.hotelId, request.workstationId);
      if (!workstation) return undefined;
      const row = await commandsRepository.submitDurable(db, {
        hotel_id: request.hotelId,
        workstation_id: request.workstationId,
        key: request.key,
        type: request.type,
        payload: request.payload,
        expires_at: new Date(Date.now() + request.deadlineMs),
        task_token: attempt.taskToken,
        workflow_id: attempt.workflowId,
      });
      const outcome = outcomeOf(row);
      return outcome ? { settled: true, outcome } : { settled: false };
    },

    /**
     * The agent's reply: settles its command once (a repeated reply changes nothing), completes the waiting activity
     * through the outbox in the same transaction, and wakes a waiting staff request wherever it is.
     */
    reply: (workstationId: string, id: string, outcome: CommandOutcome): Promise<boolean> =>
      db.transaction(async (trx) => {
        const row = await commandsRepository.complete(trx, workstationId, id, outcome);
        if (!row) return false;
        if (row.durable && row.task_token && row.workflow_id) {
          const waiting = { workflowId: row.workflow_id, taskToken: row.task_token };
          await enqueueOutbox(
            trx,
            outcome.ok
              ? { kind: 'completeActivity', ...waiting, result: outcome.result }
              : {
                  kind: 'failActivity',
                  ...waiting,
                  failure: {
                    type: AGENT_COMMAND_REFUSED,
                    message: agentErrorText(outcome.error),
                    details: [outcome.error],
                  },
                },
          );
        }
        return true;
      }),

    /** What a (re)connecting agent is sent, a batch at a time (oldest first; the next batch after `after`). */
    pendingFor: (workstationId: string, after?: AgentCommandRow) =>
      commandsRepository.pending(db, workstationId, after),

    /** One command just announced for this workstation, while it may still be sent. */
    async deliverable(workstationId: string, id: string): Promise<AgentCommandRow | undefined> {
      const row = await commandsRepository.find(db, workstationId, id);
      return row?.status === 'pending' && row.expires_at.getTime() > Date.now() ? row : undefined;
    },

    markDelivered: (ids: string[]) => commandsRepository.markDelivered(db, ids),
  };
}

export type AgentCommands = ReturnType<typeof createAgentCommands>;
