import {
  ActivityNotFoundError,
  isGrpcServiceError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure, WorkflowIdReusePolicy, type SearchAttributePair } from '@temporalio/common';
import type { OutboxMessage, SearchAttributeValues, SignalMessage, StartWorkflowMessage } from '../db/outbox';
import { withTraceCarrier } from '../observability/trace-context';
import { searchAttributeKeys } from './client';

/** gRPC codes that say Temporal could not take the call now, whatever the message (an outage, not a bad message). */
const TEMPORAL_AWAY_CODES = new Set([
  4, // DEADLINE_EXCEEDED: no answer within our deadline
  8, // RESOURCE_EXHAUSTED: rate limited
  14, // UNAVAILABLE: down, restarting or unreachable
]);

/** True when the failure is Temporal's unavailability rather than something about the message. */
export function isTemporalUnavailable(error: unknown): boolean {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (isGrpcServiceError(cause)) return TEMPORAL_AWAY_CODES.has(cause.code);
  }
  return false;
}

function toSearchAttributes(values: SearchAttributeValues): SearchAttributePair[] {
  return (Object.keys(values) as (keyof SearchAttributeValues)[])
    .filter((name) => values[name] !== undefined)
    .map((name) => ({ key: searchAttributeKeys[name], value: values[name] as string }));
}

/**
 * Starts or signals the message's workflow. Workflow ids are deterministic and duplicates are rejected, so a message
 * delivered twice (a crash between the call and marking it delivered) has no second effect. The call runs in the
 * trace of the request that enqueued the message, which a tracing client passes on to the workflow.
 */
export function deliverToTemporal(
  client: Client,
  taskQueue: string,
  message: OutboxMessage,
  { eagerStart = false }: DeliveryOptions = {},
): Promise<void> {
  return withTraceCarrier(message.traceContext, () => deliver(client, taskQueue, message, eagerStart));
}

export interface DeliveryOptions {
  /**
   * Ask Temporal to hand a plain start's first workflow task back in its answer, to the worker sharing the client's
   * NativeConnection (eager workflow start): when that worker has a free slot, the task skips the matching service
   * (no task queue write, no poll). Otherwise it is dispatched as usual, fairly.
   */
  eagerStart?: boolean;
}

type StartMessage = Extract<OutboxMessage, { kind: 'startWorkflow' | 'signalWithStart' }>;

function startOptions(taskQueue: string, message: StartMessage) {
  return {
    taskQueue,
    workflowId: message.workflowId,
    args: message.args,
    // A workflow that has finished is not started again, not even by signalWithStart: the message is a redelivery
    // (crash between the call and marking the row) or comes too late to change anything. Unless the message asks
    // to revive it: its workflow re-reads what is left to do, so a redelivery only makes a run that finds nothing.
    workflowIdReusePolicy:
      message.kind === 'signalWithStart' && message.reviveFinished
        ? WorkflowIdReusePolicy.ALLOW_DUPLICATE
        : WorkflowIdReusePolicy.REJECT_DUPLICATE,
    typedSearchAttributes: toSearchAttributes(message.searchAttributes),
    memo: message.memo,
    // Temporal dispatches a backlogged task queue fairly across these keys (where fairness is enabled on the
    // server), and the workflow's activities inherit it: one hotel's burst does not delay another's e-mails there.
    priority: { fairnessKey: message.searchAttributes.HotelSlug },
  };
}

/** The call's answer: 'existed' when Temporal refused it as the workflow exists already (running, or finished). */
async function acceptedOrExisted(call: Promise<unknown>): Promise<'accepted' | 'existed'> {
  try {
    await call;
    return 'accepted';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'existed';
    throw error;
  }
}

async function deliver(client: Client, taskQueue: string, message: OutboxMessage, eagerStart: boolean): Promise<void> {
  if (message.kind === 'completeActivity' || message.kind === 'failActivity') {
    await settleActivity(client, message);
    return;
  }
  if (message.kind === 'signalWorkflow') {
    try {
      await client.workflow.getHandle(message.workflowId).signal(message.signal, ...message.args);
    } catch (error) {
      // The workflow has already finished (e.g. an invitation that expired): the signal has nothing left to change.
      // Its start cannot still be pending: one workflow's messages are delivered in order, the start first.
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
    return;
  }
  const start = startOptions(taskQueue, message);
  // A workflow that exists already is the start's redelivery (or one too late): nothing left to do.
  await acceptedOrExisted(
    message.kind === 'startWorkflow'
      ? client.workflow.start(message.workflowType, { ...start, requestEagerStart: eagerStart })
      : client.workflow.signalWithStart(message.workflowType, {
          ...start,
          signal: message.signal,
          signalArgs: message.signalArgs,
        }),
  );
}

/**
 * A start and the signal committed right after it as one signal-with-start (the start's options and input, the
 * signal's name and arguments), in the start's trace (the signal has none or the same): Temporal writes the workflow's
 * start and the signal in one request, and its first task reads the input, then the signal, as it would have from two
 * calls. A running workflow of that id (the start is a redelivery) is only signalled, as the two calls would have done.
 * One that has finished is not started again (the start's own rule): 'existed', and the caller sends the signal alone
 * (`deliverToTemporal`), as it would have gone after the start: dropped, or reviving the workflow when it asks to.
 */
export function deliverStartWithSignal(
  client: Client,
  taskQueue: string,
  start: StartWorkflowMessage,
  signal: SignalMessage,
): Promise<'accepted' | 'existed'> {
  return withTraceCarrier(start.traceContext, () =>
    acceptedOrExisted(
      client.workflow.signalWithStart(start.workflowType, {
        ...startOptions(taskQueue, start),
        signal: signal.signal,
        signalArgs: signal.kind === 'signalWorkflow' ? signal.args : signal.signalArgs,
      }),
    ),
  );
}

/**
 * Completes or fails the activity attempt waiting by that task token. An attempt that is no longer waiting (it timed
 * out and a later one took over, or this is a redelivery) is not found: the later attempt reads the stored outcome.
 */
async function settleActivity(
  client: Client,
  message: Extract<OutboxMessage, { kind: 'completeActivity' | 'failActivity' }>,
): Promise<void> {
  const taskToken = Buffer.from(message.taskToken, 'base64');
  try {
    if (message.kind === 'completeActivity') await client.activity.complete(taskToken, message.result);
    else await client.activity.fail(taskToken, ApplicationFailure.create({ ...message.failure, nonRetryable: true }));
  } catch (error) {
    if (!(error instanceof ActivityNotFoundError)) throw error;
  }
}
