import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { startMailCatcher } from './mail-catcher';
import { startObjectStore } from './object-store';
import { startPostgres } from './postgres';
import { startTemporal } from './temporal';
import { startFakeChannex } from '../../test/fakes/channex';
import { startFakePushService, startPushInbox } from '../../test/fakes/push';
import { startFakeTTLock } from '../../test/fakes/ttlock';
import { startFakeYooKassa } from '../../test/fakes/yookassa';

export interface StackOptions {
  /** Where the embedded services keep their data. */
  dataDir: string;
  /** Durable dev data, or fast throw-away test data. */
  durable: boolean;
  ports: { postgres: number; temporal: number; temporalUi?: number; s3: number; smtp: number; mailWeb: number };
  temporalBinary: string;
  /**
   * Variables already set (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT, SMTP_URL, YOOKASSA_API_URL, TTLOCK_API_URL,
   * CHANNEX_API_URL) point at external services.
   */
  env: NodeJS.ProcessEnv;
  /** Where the YooKassa sandbox notifies shops that set no webhook of their own (the API's notification endpoint). */
  yookassaWebhookUrl?: string;
  /** The YooKassa sandbox's port (default: a free one). */
  yookassaPort?: number;
  /** The Channex sandbox's port (default: a free one). */
  channexPort?: number;
  /**
   * A local Web Push service (dev): pushes to its subscriptions are decrypted and shown at its inbox page; its
   * subscriptions are kept in `stateFile` so they outlive a restart. None by default (tests start their own).
   */
  pushService?: { port: number; inboxPort: number; stateFile: string };
}

export interface RunningStack {
  /** Environment for the API and worker processes. */
  env: Record<string, string>;
  /** What a person opens, in print order. */
  addresses: [string, string][];
  stop(): Promise<void>;
}

export const MEDIA_BUCKET = 'hotel-media';

/**
 * The shop the YooKassa sandbox opens at start, for a hotel's gateway while developing (the sandbox, like YooKassa,
 * refuses shops it does not know; tests open their own with `fakeYooKassaControl(...).openShop`).
 */
export const SANDBOX_SHOP = { shopId: '100500', secretKey: 'test_sandbox_secret_key' };

/**
 * The property the Channex sandbox opens at start, for a hotel's channel connection while developing (its key, room
 * types and rate plans to map); an OTA booking is made to appear with `fakeChannexControl(...).makeRevision`. Tests
 * open their own with `fakeChannexControl(...).openProperty`.
 */
export const SANDBOX_CHANNEX = {
  propertyId: 'b1a7c5e2-5a0d-4c57-9f3e-0c2d6a1e4b10',
  apiKey: 'sandbox-channex-api-key',
  roomTypes: [
    {
      id: 'c3e8a1d4-7b2f-4e61-8a9c-1d2e3f4a5b01',
      title: 'Standard Double',
      ratePlans: [{ id: 'd4f9b2e5-8c3a-4f72-9bad-2e3f4a5b6c01', title: 'Best Available Rate' }],
    },
    {
      id: 'c3e8a1d4-7b2f-4e61-8a9c-1d2e3f4a5b02',
      title: 'Deluxe Twin',
      ratePlans: [{ id: 'd4f9b2e5-8c3a-4f72-9bad-2e3f4a5b6c02', title: 'Best Available Rate' }],
    },
  ],
} as const;

/** Starts every embedded service that the environment does not already point elsewhere. */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const stops: (() => Promise<void>)[] = [];
  const env: Record<string, string> = {};
  const addresses: [string, string][] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
  };
  try {
    const pending: Promise<void>[] = [];
    if (options.env.DATABASE_URL) {
      env.DATABASE_URL = options.env.DATABASE_URL;
    } else {
      pending.push(
        startPostgres({
          dataDir: path.join(options.dataDir, 'pg'),
          port: options.ports.postgres,
          database: 'hotel',
          durable: options.durable,
        }).then((pg) => {
          stops.push(pg.stop);
          env.DATABASE_URL = pg.url;
        }),
      );
    }
    if (options.env.TEMPORAL_ADDRESS) {
      env.TEMPORAL_ADDRESS = options.env.TEMPORAL_ADDRESS;
    } else {
      pending.push(
        startTemporal({
          binary: options.temporalBinary,
          port: options.ports.temporal,
          uiPort: options.ports.temporalUi,
          dbFile: options.durable ? path.join(options.dataDir, 'temporal.db') : undefined,
        }).then((temporal) => {
          stops.push(temporal.stop);
          env.TEMPORAL_ADDRESS = temporal.address;
          if (temporal.uiUrl) addresses.push(['Temporal Web UI', temporal.uiUrl]);
        }),
      );
    }
    if (options.env.S3_ENDPOINT) {
      env.S3_ENDPOINT = options.env.S3_ENDPOINT;
    } else {
      pending.push(
        startObjectStore({
          directory: path.join(options.dataDir, 'object-store'),
          port: options.ports.s3,
          bucket: MEDIA_BUCKET,
        }).then((store) => {
          stops.push(store.stop);
          Object.assign(env, {
            S3_ENDPOINT: store.endpoint,
            S3_BUCKET: store.bucket,
            S3_ACCESS_KEY: store.accessKey,
            S3_SECRET_KEY: store.secretKey,
          });
          addresses.push(['Object store (S3)', `${store.endpoint}/${store.bucket}`]);
        }),
      );
    }
    if (options.env.SMTP_URL) {
      env.SMTP_URL = options.env.SMTP_URL;
    } else {
      pending.push(
        startMailCatcher({
          smtpPort: options.ports.smtp,
          httpPort: options.ports.mailWeb,
          directory: options.durable ? path.join(options.dataDir, 'mail') : undefined,
        }).then((mail) => {
          stops.push(mail.stop);
          env.SMTP_URL = mail.smtpUrl;
          env.MAIL_CATCHER_URL = mail.webUrl;
          addresses.push(['Mail catcher', mail.webUrl]);
        }),
      );
    }
    if (options.env.YOOKASSA_API_URL) {
      env.YOOKASSA_API_URL = options.env.YOOKASSA_API_URL;
    } else {
      pending.push(
        startFakeYooKassa({
          defaultWebhookUrl: options.yookassaWebhookUrl,
          port: options.yookassaPort,
          shops: [SANDBOX_SHOP],
        }).then((yookassa) => {
          stops.push(yookassa.close);
          env.YOOKASSA_API_URL = yookassa.apiUrl;
          env.YOOKASSA_FAKE_URL = yookassa.url;
          addresses.push([
            'YooKassa sandbox',
            `${yookassa.url} (shop_id ${SANDBOX_SHOP.shopId}, secret_key ${SANDBOX_SHOP.secretKey})`,
          ]);
        }),
      );
    }
    if (options.env.CHANNEX_API_URL) {
      env.CHANNEX_API_URL = options.env.CHANNEX_API_URL;
    } else {
      pending.push(
        startFakeChannex({ port: options.channexPort, properties: [sandboxChannexProperty()] }).then((channex) => {
          stops.push(channex.close);
          env.CHANNEX_API_URL = channex.apiUrl;
          env.CHANNEX_FAKE_URL = channex.url;
          addresses.push([
            'Channex sandbox',
            `${channex.url} (property ${SANDBOX_CHANNEX.propertyId}, user-api-key ${SANDBOX_CHANNEX.apiKey})`,
          ]);
        }),
      );
    }
    if (options.env.TTLOCK_API_URL) {
      env.TTLOCK_API_URL = options.env.TTLOCK_API_URL;
    } else {
      // Both clouds at the fake's root: an account registered there answers whichever server a hotel chose.
      pending.push(
        startFakeTTLock().then((ttlock) => {
          stops.push(ttlock.close);
          env.TTLOCK_API_URL = ttlock.url;
          addresses.push(['TTLock sandbox', ttlock.url]);
        }),
      );
    }
    if (options.pushService) {
      const { port, inboxPort, stateFile } = options.pushService;
      pending.push(
        (async () => {
          const push = await startFakePushService({ port, stateFile });
          stops.push(push.close);
          // The API and the worker trust its self-signed certificate.
          env.PUSH_CA_FILE = push.caFile;
          const inbox = await startPushInbox(push, inboxPort);
          stops.push(inbox.close);
          env.PUSH_INBOX_URL = inbox.url;
          addresses.push(['Push service', inbox.url]);
        })(),
      );
    }
    const results = await Promise.allSettled(pending);
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    addresses.push(['Database', env.DATABASE_URL]);
    return { env, addresses, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function sandboxChannexProperty() {
  return {
    id: SANDBOX_CHANNEX.propertyId,
    api_key: SANDBOX_CHANNEX.apiKey,
    title: 'Sandbox hotel',
    room_types: SANDBOX_CHANNEX.roomTypes.map(({ id, title, ratePlans }) => ({
      id,
      title,
      rate_plans: ratePlans.map((plan) => ({ ...plan })),
    })),
  };
}

/** A throw-away stack on free ports in a temporary directory (tests, benchmarks): nothing shared with dev data. */
export async function startEphemeralStack(label: string): Promise<RunningStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `hotel-pms-${label}-`));
  chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user and must reach its data directory.
  const stack = await startStack({
    dataDir,
    durable: false,
    ports: {
      postgres: await freePort(),
      temporal: await freePort(),
      s3: await freePort(),
      smtp: await freePort(),
      mailWeb: await freePort(),
    },
    temporalBinary: process.env.TEMPORAL_CLI ?? path.resolve(__dirname, '../../.tools/bin/temporal'),
    env: {},
  });
  return {
    ...stack,
    async stop() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
