import pg from 'pg';
import type { Logger } from '../logger';

/** What a subscriber of one channel is told. */
export interface ChannelHandlers {
  /** A notification on the channel, with its payload (empty string when none was given). */
  onNotification(payload: string): void;
  /**
   * The connection is listening again (the first time, and after every reconnection): notifications sent while
   * nobody listened were lost, so a subscriber catches up from its source of truth here.
   */
  onListening?(): void;
  /** The connection was lost: until `onListening`, notifications are not arriving. */
  onLost?(): void;
}

export interface PgListener {
  /** Subscribes to a channel; the returned function unsubscribes. */
  subscribe(channel: string, handlers: ChannelHandlers): () => void;
  /** True while LISTEN is established: a cache invalidated by notifications may trust itself only then. */
  isListening(): boolean;
  /** Settles once the connection first listens (or the listener is closed). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface PgListenerOptions {
  connectionString: string;
  logger: Logger;
  /** Reconnect delays: doubling from `min` up to `max` (ms). */
  retryMs?: { min: number; max: number };
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * One PostgreSQL connection per process for every LISTEN (realtime fan-out, outbox wake-ups, access revocations),
 * outside the query pool so it never takes a slot from requests. It reconnects with backoff and tells each
 * subscriber when notifications may have been missed and when they flow again.
 */
export function createPgListener(options: PgListenerOptions): PgListener {
  const { connectionString, logger } = options;
  const retry = options.retryMs ?? { min: 250, max: 30_000 };
  const subscribers = new Map<string, Set<ChannelHandlers>>();
  let client: pg.Client | undefined;
  /** The channels the current connection listens to. */
  let listened = new Set<string>();
  let listening = false;
  let closing = false;
  let retryDelay = retry.min;
  let retryTimer: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  function each(channel: string | undefined, call: (handlers: ChannelHandlers) => void): void {
    const lists = channel === undefined ? [...subscribers.values()] : [subscribers.get(channel) ?? new Set()];
    for (const handlers of lists.flatMap((set) => [...set])) {
      try {
        call(handlers);
      } catch (error) {
        logger.error({ err: error, channel }, 'listener subscriber failed');
      }
    }
  }

  function scheduleConnect(): void {
    if (closing || retryTimer) return;
    const delay = retryDelay;
    retryDelay = Math.min(retry.max, retryDelay * 2);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connecting = connect();
    }, delay);
    retryTimer.unref();
  }

  function lost(connection: pg.Client, reason: unknown): void {
    if (client !== connection) return;
    client = undefined;
    const wasListening = listening;
    listening = false;
    connection.removeAllListeners('notification');
    void connection.end().catch(() => undefined);
    if (closing) return;
    logger.warn({ err: reason }, 'LISTEN connection lost; reconnecting');
    if (wasListening) each(undefined, (handlers) => handlers.onLost?.());
    scheduleConnect();
  }

  async function connect(): Promise<void> {
    const connection = new pg.Client({ connectionString });
    client = connection;
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection, new Error('connection ended')));
    connection.on('notification', (message) => each(message.channel, (h) => h.onNotification(message.payload ?? '')));
    listened = new Set();
    try {
      await connection.connect();
      // Channels subscribed while this runs are picked up by the next round.
      for (;;) {
        const pending = [...subscribers.keys()].filter((channel) => !listened.has(channel));
        if (pending.length === 0) break;
        for (const channel of pending) {
          await connection.query(`LISTEN ${channel}`);
          listened.add(channel);
        }
      }
      if (client !== connection || closing) return;
      listening = true;
      if (retryDelay !== retry.min) logger.info('LISTEN connection restored');
      retryDelay = retry.min;
      markReady();
      each(undefined, (handlers) => handlers.onListening?.());
    } catch (error) {
      if (client === connection) lost(connection, error);
      else void connection.end().catch(() => undefined);
    }
  }

  connecting = connect();

  return {
    subscribe(channel, handlers) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid channel name ${channel}`);
      let set = subscribers.get(channel);
      if (!set) {
        subscribers.set(channel, (set = new Set()));
        // A channel added while connected is listened to at once; the notifications start with that statement.
        if (client && listening) {
          const connection = client;
          listened.add(channel);
          void connection.query(`LISTEN ${channel}`).then(
            () => handlers.onListening?.(),
            (error: unknown) => lost(connection, error),
          );
        }
      } else if (listening) {
        queueMicrotask(() => handlers.onListening?.());
      }
      set.add(handlers);
      return () => {
        set.delete(handlers);
      };
    },

    isListening: () => listening,

    ready: () => ready,

    async close() {
      if (closing) return;
      closing = true;
      clearTimeout(retryTimer);
      await connecting?.catch(() => undefined);
      const connection = client;
      client = undefined;
      listening = false;
      markReady();
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    },
  };
}
