import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities, moduleSchedules } from '../activities';
import { ConfigError, loadConfig } from '../src/config';
import { createProcessDb } from '../src/platform/db/knex';
import { createPgListener } from '../src/platform/db/pg-listener';
import { createLogger } from '../src/platform/logger';
import { createMailer } from '../src/platform/mail';
import { onShutdownSignal } from '../src/platform/shutdown';
import { connectTemporal, ensureSearchAttributes } from '../src/platform/temporal/client';
import { startOutboxRelay } from '../src/platform/temporal/outbox-relay';
import { temporalLogger } from '../src/platform/temporal/runtime-logger';
import { ensureSchedules } from '../src/platform/temporal/schedules';
import { workflowSource } from './workflow-source';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel, 'worker');
  // Shutdown is ours (relay first, then the worker drains), so the SDK must not react to signals itself.
  Runtime.install({ logger: temporalLogger(logger), shutdownSignals: [] });
  const db = createProcessDb(config, 'worker', logger);
  const mailer = createMailer(config.smtpUrl, config.mailFrom);
  const { connection, client } = await connectTemporal(config.temporal);
  await ensureSearchAttributes(connection, config.temporal.namespace);
  await ensureSchedules(client, config.temporal.taskQueue, moduleSchedules());
  const nativeConnection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    ...workflowSource(),
    activities: createActivities({ db, config, mailer }),
    shutdownGraceTime: `${config.shutdownTimeoutMs} ms`,
  });
  const listener = createPgListener({ connectionString: config.databaseUrl, logger });
  const relay = startOutboxRelay({
    db,
    client,
    taskQueue: config.temporal.taskQueue,
    logger,
    listener,
    maxLagSeconds: config.outboxMaxLagSeconds,
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
    logger.info('worker stopped');
  });
  await running.catch((error: unknown) => {
    logger.fatal({ err: error }, 'worker failed');
    process.exit(1);
  });
}

void main();
