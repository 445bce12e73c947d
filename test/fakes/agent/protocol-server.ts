import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import type { CommandReply, HelloMessage, WelcomeMessage } from './protocol';

/**
 * The server side of protocol 1, just enough to drive the reference agent in its own tests: it checks the Bearer
 * credential at the handshake, answers hello with welcome and lets the test send commands and read replies.
 */
export class ProtocolServer {
  readonly connections: ServerSideAgent[] = [];
  /** When each handshake was attempted, accepted or not. */
  readonly handshakeTimes: number[] = [];
  /** HTTP statuses the next handshakes are refused with, whatever their credential. */
  readonly refusals: number[] = [];
  private readonly untaken: ServerSideAgent[] = [];
  private readonly connectionWaiters: ((connection: ServerSideAgent) => void)[] = [];

  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(credential: string, heartbeatSeconds = 30): Promise<ProtocolServer> {
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      path: '/agents/ws',
      verifyClient: (info, accept) => {
        protocolServer.handshakeTimes.push(Date.now());
        const refusal = protocolServer.refusals.shift();
        if (refusal !== undefined) accept(false, refusal);
        else accept(info.req.headers.authorization === `Bearer ${credential}`, 401);
      },
    });
    await once(server, 'listening');
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/agents/ws`;
    const protocolServer = new ProtocolServer(server, url);
    server.on('connection', (socket) => protocolServer.accept(new ServerSideAgent(socket, heartbeatSeconds)));
    return protocolServer;
  }

  /** The oldest greeted connection no test has taken yet, or the next one to say hello. */
  nextConnection(timeoutMs = 5000): Promise<ServerSideAgent> {
    const greeted = this.untaken.shift();
    if (greeted) return Promise.resolve(greeted);
    return waitFor(this.connectionWaiters, timeoutMs, 'connection');
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(connection: ServerSideAgent): void {
    void connection.greeted.then(() => {
      this.connections.push(connection);
      const waiter = this.connectionWaiters.shift();
      if (waiter) waiter(connection);
      else this.untaken.push(connection);
    });
  }
}

export class ServerSideAgent {
  hello: HelloMessage | undefined;
  heartbeats = 0;
  readonly replies: CommandReply[] = [];
  readonly greeted: Promise<HelloMessage>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly replyWaiters = new Map<string, ((reply: CommandReply) => void)[]>();

  constructor(
    private readonly socket: WebSocket,
    heartbeatSeconds: number,
  ) {
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    this.greeted = new Promise((resolve) => {
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as { type?: string; id?: string };
        if (!this.hello && frame.type === 'hello') {
          this.hello = frame as HelloMessage;
          this.send(welcomeFor(heartbeatSeconds));
          resolve(this.hello);
        } else if (frame.type === 'heartbeat') this.heartbeats += 1;
        else if (frame.id !== undefined) this.receiveReply(frame as CommandReply);
      });
    });
  }

  send(frame: unknown): void {
    this.socket.send(JSON.stringify(frame));
  }

  /** Sends a command (a new id unless given) and waits for its reply. */
  command(
    type: string,
    payload: Record<string, unknown> = {},
    { id = randomUUID(), expiresAt = new Date(Date.now() + 60_000).toISOString(), timeoutMs = 5000 } = {},
  ): Promise<CommandReply> {
    const reply = this.replyTo(id, timeoutMs);
    this.send({ id, type, payload, expires_at: expiresAt });
    return reply;
  }

  replyTo(id: string, timeoutMs = 5000): Promise<CommandReply> {
    let waiters = this.replyWaiters.get(id);
    if (!waiters) this.replyWaiters.set(id, (waiters = []));
    return waitFor(waiters, timeoutMs, `reply to ${id}`);
  }

  close(code: number, reason = ''): void {
    this.socket.close(code, reason);
  }

  private receiveReply(reply: CommandReply): void {
    this.replies.push(reply);
    // One reply answers one waiter: a command sent twice under one id is waited for twice.
    const waiters = this.replyWaiters.get(reply.id) ?? [];
    waiters.shift()?.(reply);
    if (waiters.length === 0) this.replyWaiters.delete(reply.id);
  }
}

function welcomeFor(heartbeatSeconds: number): WelcomeMessage {
  return {
    type: 'welcome',
    protocol: 1,
    workstation_id: 'a6b1c3f0-0000-4000-8000-000000000001',
    hotel_slug: 'test-hotel',
    heartbeat_seconds: heartbeatSeconds,
    latest_release: { version: '1.5.0', url: null, sha256: null },
  };
}

/** Queues a waiter, taken out again if nothing came for it in time. */
function waitFor<T>(waiters: ((value: T) => void)[], timeoutMs: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const waiter = (value: T) => {
      clearTimeout(timer);
      resolve(value);
    };
    const timer = setTimeout(() => {
      waiters.splice(waiters.indexOf(waiter), 1);
      reject(new Error(`no ${what} within ${timeoutMs} ms`));
    }, timeoutMs);
    waiters.push(waiter);
  });
}
