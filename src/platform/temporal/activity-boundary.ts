import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { runAsActor, type AuditContext } from '../db/audit-context';
import { refusesForGood } from '../errors';

/**
 * How a module's refusals reach its workflows. By default a refusal fails as the error's class name (`NotFoundError`),
 * what Temporal would have named it.
 */
export interface RefusalFailure {
  /** The failure type the module's workflows check (a constant of its contract). */
  type?: string;
  /** The refusal's `{ code, message }` travels as the failure's details, as a desk's refusal does (an AgentRefusal). */
  withCode?: boolean;
}

/**
 * A service's refusal (the record is gone, a rule refuses) as the workflow sees it: a non-retryable failure with the
 * refusal's words. Anything else (a failure Temporal already understands, an outage, a bug) goes on as it is, to be
 * retried.
 */
function asActivityFailure(error: unknown, refusal: RefusalFailure = {}): unknown {
  if (!refusesForGood(error)) return error;
  const details = refusal.withCode ? [{ code: error.code, message: error.message }] : [];
  return ApplicationFailure.nonRetryable(error.message, refusal.type ?? error.name, ...details);
}

type Activity = (...args: unknown[]) => Promise<unknown>;

/**
 * A job records its changes in the audit log as itself: the workflow it runs for (a no-show sweep, the night audit, a
 * block's release) and the activity. Called outside a worker (a test calling the function), the activity's name.
 */
function jobOf(name: string): AuditContext {
  let workflow = name;
  try {
    workflow = Context.current().info.workflowType ?? name;
  } catch {
    // Not in an activity's context.
  }
  return { actor: { kind: 'job', name: workflow }, operation: name };
}

/**
 * The one boundary between the services and Temporal: every activity the worker registers runs behind it, so services
 * throw their own errors and never import Temporal. Names and results are kept; only refusals are translated; what
 * an activity changes is recorded in the audit log as its workflow's.
 */
export function activityBoundary<A extends object>(activities: A, refusal?: RefusalFailure): A {
  const bounded = Object.entries(activities as Record<string, Activity>).map(([name, activity]) => [
    name,
    async (...args: unknown[]) => {
      try {
        return await runAsActor(jobOf(name), () => activity(...args));
      } catch (error) {
        throw asActivityFailure(error, refusal);
      }
    },
  ]);
  return Object.fromEntries(bounded) as A;
}
