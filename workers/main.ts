import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities, moduleSchedules } from '../activities';
import { ConfigError, loadConfig } from '../src/config';
import type { TemporalWorkerSizing } from '../src/platform/config';
import { createProcessDb } from '../src/platform/db/knex';
import { createPgListener } from '../src/platform/db/pg-listener';
import { createLogger } from '../src/platform/logger';
import { createMailer } from '../src/platform/mail';
import { installTracing } from '../src/platform/observability/tracing';
import { clientTracingInterceptors, workerTracingOptions } from '../src/platform/observability/worker-tracing';
import { onShutdownSignal } from '../src/platform/shutdown';
import { connectTemporal, ensureSearchAttributes } from '../src/platform/temporal/client';
import { startOutboxRelay } from '../src/platform/temporal/outbox-relay';
import { temporalLogger } from '../src/platform/temporal/runtime-logger';
import { ensureSchedules } from '../src/platform/temporal/schedules';
import { startupStep } from '../src/platform/temporal/startup-step';
import { workflowSource } from './workflow-source';

/** The configured sizing as the SDK's worker options. */
function workerSizing(sizing: TemporalWorkerSizing) {
  return {
    maxConcurrentWorkflowTaskExecutions: sizing.workflowTaskSlots,
    maxConcurrentActivityTaskExecutions: sizing.activitySlots,
    ...(sizing.cachedWorkflows !== undefined && { maxCachedWorkflows: sizing.cachedWorkflows }),
    workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: sizing.workflowPollers },
    activityTaskPollerBehavior: { type: 'simple-maximum', maximum: sizing.activityPollers },
    nonStickyToStickyPollRatio: sizing.nonStickyPollRatio,
    stickyQueueScheduleToStartTimeout: `${sizing.stickyTimeoutMs} ms`,
  } as const;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel, 'worker', { format: config.logFormat });
  const tracing = config.tracing.enabled ? installTracing(config.tracing.serviceName ?? 'hotel-pms-worker') : undefined;
  const metricsAddress = config.metrics.workerAddress;
  Runtime.install({
    logger: temporalLogger(logger),
    // Shutdown is ours (relay first, then the worker drains), so the SDK must not react to signals itself.
    shutdownSignals: [],
    // The SDK's own metrics (task latencies, slots, polls) and ours (the relay's backlog), at <address>/metrics.
    ...(metricsAddress && { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress } } } }),
  });
  const db = createProcessDb(config, 'worker', logger);
  const mailer = createMailer(config.smtpUrl, config.mailFrom);
  const { connection, client } = await startupStep(logger, 'connect', () =>
    connectTemporal(config.temporal, clientTracingInterceptors(tracing)),
  );
  await startupStep(logger, 'search attributes', () => ensureSearchAttributes(connection, config.temporal.namespace));
  await startupStep(logger, 'schedules', () => ensureSchedules(client, config.temporal.taskQueue, moduleSchedules()));
  const nativeConnection = await NativeConnection.connect({ address: config.temporal.address });
  const workflows = workflowSource();
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    ...workflows,
    ...workerTracingOptions(tracing, workflows.workflowBundle !== undefined),
    activities: createActivities({ db, config, mailer }),
    ...workerSizing(config.worker),
    shutdownGraceTime: `${config.shutdownTimeoutMs} ms`,
  });
  const listener = createPgListener({ connectionString: config.databaseUrl, logger });
  // The relay's client shares the worker's connection, so a start can hand its first task straight to this worker.
  const relayClient = new Client({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    interceptors: { workflow: clientTracingInterceptors(tracing) },
  });
  const relay = startOutboxRelay({
    db,
    client: relayClient,
    eagerStart: true,
    taskQueue: config.temporal.taskQueue,
    logger,
    listener,
    maxLagSeconds: config.outboxMaxLagSeconds,
    concurrency: config.outboxRelayConcurrency,
    metricMeter: Runtime.instance().metricMeter,
  });
  const running = worker.run();
  logger.info({ taskQueue: config.temporal.taskQueue }, 'worker started');

  onShutdownSignal(logger, config.shutdownTimeoutMs, async () => {
    await relay.stop();
    await listener.close();
    worker.shutdown();
    await running;
    await nativeConnection.close();
    await connection.close();
    mailer.close();
    await db.destroy();
    await tracing?.shutdown();
    logger.info('worker stopped');
  });
  await running.catch((error: unknown) => {
    logger.fatal({ err: error }, 'worker failed');
    process.exit(1);
  });
}

void main();
