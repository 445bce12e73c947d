import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';

/** W3C trace-context headers (`traceparent`, maybe `tracestate`): ids only, nothing about the request. */
export type TraceCarrier = Record<string, string>;

/** The active span's trace context, to carry across a process boundary; none when tracing is off or no span runs. */
export function activeTraceCarrier(): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** Runs `work` as part of the trace `carrier` came from (as is, without one). */
export function withTraceCarrier<T>(carrier: TraceCarrier | undefined, work: () => T): T {
  return carrier ? context.with(propagation.extract(ROOT_CONTEXT, carrier), work) : work();
}

/** The trace id a carrier names: the second field of its `traceparent` (version-trace-parent-flags). */
export function traceIdOf(carrier: TraceCarrier | undefined): string | undefined {
  return carrier?.traceparent?.split('-')[1];
}
