import { ApplicationFailure } from '@temporalio/common';
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
 * The one boundary between the services and Temporal: every activity the worker registers runs behind it, so services
 * throw their own errors and never import Temporal. Names and results are kept; only refusals are translated.
 */
export function activityBoundary<A extends object>(activities: A, refusal?: RefusalFailure): A {
  const bounded = Object.entries(activities as Record<string, Activity>).map(([name, activity]) => [
    name,
    async (...args: unknown[]) => {
      try {
        return await activity(...args);
      } catch (error) {
        throw asActivityFailure(error, refusal);
      }
    },
  ]);
  return Object.fromEntries(bounded) as A;
}
