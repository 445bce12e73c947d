import { randomUUID } from 'node:crypto';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { OutboxMessage } from '../../src/platform/db/outbox';
import { installTracing, type Tracing } from '../../src/platform/observability/tracing';
import { clientTracingInterceptors } from '../../src/platform/observability/worker-tracing';
import { deliverToTemporal } from '../../src/platform/temporal/outbox-delivery';
import { as, registerHotel } from '../helpers/accounts';
import { until } from '../helpers/wait';
import { createTestApp, type TestApp } from '../helpers/app';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * With tracing on, a request's trace goes with the outbox messages it commits, and the relay's call to Temporal
 * continues it, so the workflow (and its activities) join the request's trace.
 */

const spans = new InMemorySpanExporter();
let tracing: Tracing;
let t: TestApp;
let connection: Connection;
beforeAll(async () => {
  tracing = installTracing('hotel-pms-test', new SimpleSpanProcessor(spans));
  // Any OTLP endpoint switches tracing on; this process's spans stay in memory.
  t = createTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
});
afterAll(async () => {
  await connection.close();
  await t.close();
  await tracing.shutdown();
});

function finishedSpan(name: string, timeoutMs = 5000): Promise<ReadableSpan> {
  return until(() => spans.getFinishedSpans().find((candidate) => candidate.name === name), {
    what: `the span ${name}`,
    timeoutMs,
    intervalMs: 20,
  });
}

it("carries a request's trace into its outbox message and from there into the workflow's start", async () => {
  const owner = await registerHotel(t);
  const category = await createCategory(t, owner);
  const room = await createRoom(t, owner, category.id);
  spans.reset();
  const booking = await t.http
    .post(`/api/hotels/${owner.slug}/bookings`)
    .set(as(owner.accessToken))
    .send({
      room_id: room.id,
      guest_last_name: 'Петрова',
      guest_first_name: 'Анна',
      check_in: '2031-03-01',
      check_out: '2031-03-03',
    })
    .expect(201);

  const request = await finishedSpan('POST /api/hotels/:slug/bookings');
  const { traceId, spanId } = request.spanContext();
  expect(request.attributes).toEqual(
    expect.objectContaining({ 'http.route': '/api/hotels/:slug/bookings', 'http.response.status_code': 201 }),
  );

  const row = await t
    .db('outbox')
    .where({ workflow_id: `booking:${booking.body.id}` })
    .first();
  const message = row.message as OutboxMessage;
  expect(message.traceContext?.traceparent).toBe(`00-${traceId}-${spanId}-01`);

  // The relay's delivery, by a tracing client, of the same message to a workflow no worker runs.
  const client = new Client({ connection, interceptors: { workflow: clientTracingInterceptors(tracing) } });
  const workflowId = `tracing-test:${randomUUID()}`;
  await deliverToTemporal(client, `tracing-test-${randomUUID()}`, { ...message, workflowId });
  const handle = client.workflow.getHandle(workflowId);
  try {
    const start = await finishedSpan('StartWorkflow:bookingLife');
    expect(start.spanContext().traceId).toBe(traceId);
    expect(start.parentSpanId).toBe(spanId);
    const history = await handle.fetchHistory();
    const header = history.events?.[0].workflowExecutionStartedEventAttributes?.header?.fields?.['_tracer-data'];
    const carried = defaultPayloadConverter.fromPayload<{ traceparent: string }>(header!);
    expect(carried.traceparent).toContain(traceId);
  } finally {
    await handle.terminate('tracing test');
  }
});
