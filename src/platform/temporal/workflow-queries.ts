import {
  Client,
  type Connection,
  QueryNotRegisteredError,
  QueryRejectCondition,
  QueryRejectedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';

/** Temporal did not answer in time, or could not be reached. */
export class WorkflowsUnavailable extends Error {}

/**
 * Reads of running workflows' state from the API process (queries), each bounded in time, over the process's one
 * Temporal connection (its readiness check's, lazy: nothing is dialled until first used, and a Temporal that is down
 * fails that query, not the process). Closed workflows are not asked (`NOT_OPEN`: the server answers at once, no
 * worker replays them).
 */
export function createWorkflowQueries(connection: Connection, namespace: string) {
  const client = new Client({
    connection,
    namespace,
    workflow: { queryRejectCondition: QueryRejectCondition.NOT_OPEN },
  });

  /** Queries not settled yet (one left behind by its timeout still retries until its deadline). */
  const pending = new Set<Promise<unknown>>();

  /** The workflow's answer; undefined when it does not exist, has ended, or has no such query (an older version). */
  async function ask<T>(workflowId: string, query: QueryDefinition<T>, timeoutMs: number): Promise<T | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WorkflowsUnavailable(`no answer in ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    });
    const answer = connection.withDeadline(Date.now() + timeoutMs, () =>
      client.workflow.getHandle(workflowId).query(query),
    );
    const settled: Promise<unknown> = answer.then(
      () => pending.delete(settled),
      () => pending.delete(settled),
    );
    pending.add(settled);
    try {
      return await Promise.race([answer, late]);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return undefined;
      if (error instanceof QueryRejectedError || error instanceof QueryNotRegisteredError) return undefined;
      throw error instanceof WorkflowsUnavailable ? error : new WorkflowsUnavailable(String(error));
    } finally {
      clearTimeout(timer);
      answer.catch(() => undefined);
    }
  }

  /**
   * Settles the queries in flight: the process closes its connection after this (closed under them, their retries
   * would throw).
   */
  async function settle() {
    await Promise.all(pending);
  }

  return { ask, settle };
}

export type WorkflowQueries = ReturnType<typeof createWorkflowQueries>;
