import type { WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';
import type { Tracing } from './tracing';

/**
 * The workflow side of tracing, which runs in the workflow sandbox: it must be bundled with the workflows (the
 * worker's own bundling when tracing is on; always in the image's prebuilt bundle, see scripts/bundle-workflows.ts).
 */
export const WORKFLOW_TRACING_INTERCEPTORS =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** Starting and signalling workflows continues the caller's trace: the span context travels in Temporal headers. */
export function clientTracingInterceptors(tracing: Tracing | undefined): WorkflowClientInterceptor[] {
  return tracing ? [new OpenTelemetryWorkflowClientInterceptor()] : [];
}

/**
 * Workflows and activities run in the trace that started them. The sink that receives workflow spans is always
 * there: a prebuilt bundle records them whether or not tracing is configured, and they are dropped when it is not.
 */
export function workerTracingOptions(
  tracing: Tracing | undefined,
  bundled: boolean,
): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const sinks: InjectedSinks<OpenTelemetrySinks> = {
    exporter: tracing
      ? makeWorkflowExporter(tracing.spanProcessor, tracing.resource)
      : { export: { fn: () => undefined, callDuringReplay: false } },
  };
  if (!tracing) return { sinks };
  return {
    sinks,
    interceptors: {
      // With a prebuilt bundle the interceptors are already in it (the worker ignores this list and warns).
      workflowModules: bundled ? [] : [WORKFLOW_TRACING_INTERCEPTORS],
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
  };
}
