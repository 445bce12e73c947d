import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** The process's tracer provider, installed only when tracing is configured (otherwise OpenTelemetry's no-op API). */
export interface Tracing {
  resource: Resource;
  /** Where spans go; the worker hands it the spans its workflows record in their sandbox too. */
  spanProcessor: SpanProcessor;
  /** Sends the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the global tracer provider with W3C trace-context propagation and an AsyncLocalStorage context manager.
 * Spans go in batches over OTLP/HTTP to where the standard `OTEL_EXPORTER_OTLP_*` variables say.
 */
export function installTracing(
  serviceName: string,
  spanProcessor: SpanProcessor = new BatchSpanProcessor(new OTLPTraceExporter()),
): Tracing {
  const resource = new Resource({ [ATTR_SERVICE_NAME]: serviceName });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return { resource, spanProcessor, shutdown: () => provider.shutdown() };
}
