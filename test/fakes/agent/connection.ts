import WebSocket from 'ws';
import {
  CloseCodes,
  isCommand,
  isWelcome,
  type AgentCommand,
  type HelloMessage,
  type WelcomeMessage,
} from './protocol';

export type AgentState = 'connecting' | 'online' | 'offline' | 'revoked';

export interface ReconnectBackoff {
  minMs: number;
  maxMs: number;
}

export interface ConnectionOptions {
  url: string;
  credential: string;
  reconnect: ReconnectBackoff;
  /** Overrides the welcome's heartbeat_seconds. */
  heartbeatSeconds?: number;
  hello(): HelloMessage;
  onCommand(command: AgentCommand): void;
  onWelcome(welcome: WelcomeMessage): void;
  onClose(close: { code: number; reason: string }): void;
}

interface WelcomeWaiter {
  resolve(welcome: WelcomeMessage): void;
  reject(error: Error): void;
}

const HANDSHAKE_STATUS = /Unexpected server response: (\d+)/;
const UNAUTHORIZED = 401;

/**
 * One WebSocket to /agents/ws at a time: hello first, heartbeats once welcomed, and a new socket after every close
 * but 4003 (revoked), a handshake refused as 401 (the credential opens nothing: pair again), or going offline on
 * purpose.
 */
export class AgentConnection {
  state: AgentState = 'connecting';
  welcome: WelcomeMessage | undefined;
  lastClose: { code: number; reason: string } | undefined;
  heartbeatsEnabled = true;
  private socket: WebSocket | undefined;
  private welcomedSocket: WebSocket | undefined;
  private wanted = true;
  private stopped = false;
  private reconnectNow = false;
  private backoffMs: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private welcomeWaiters: WelcomeWaiter[] = [];
  private closeWaiters: (() => void)[] = [];

  constructor(private readonly options: ConnectionOptions) {
    this.backoffMs = options.reconnect.minMs;
  }

  open(): void {
    this.state = 'connecting';
    let handshakeStatus: number | undefined;
    const socket = new WebSocket(this.options.url, { headers: { Authorization: `Bearer ${this.options.credential}` } });
    this.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify(this.options.hello())));
    socket.on('message', (data) => this.receive(socket, data.toString()));
    socket.on('error', (error) => {
      const status = HANDSHAKE_STATUS.exec(error.message)?.[1];
      if (status !== undefined) handshakeStatus = Number(status);
    });
    socket.on('close', (code, reason) => {
      const why = handshakeStatus === undefined ? reason.toString() : `handshake refused with ${handshakeStatus}`;
      this.closed(socket, code, why, handshakeStatus === UNAUTHORIZED);
    });
  }

  /** Sends on the welcomed socket; false when there is none (a reply then waits for its redelivery). */
  send(frame: unknown): Promise<boolean> {
    const socket = this.welcomedSocket;
    if (socket?.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    return new Promise((resolve) => socket.send(JSON.stringify(frame), (error) => resolve(!error)));
  }

  /** Closes and connects again at once, as an agent does after installing an update. */
  reconnect(reason: string): void {
    if (!this.socket || this.socket.readyState === WebSocket.CLOSED) return this.open();
    this.reconnectNow = true;
    this.socket.close(1000, reason);
  }

  goOffline(reason = 'offline'): Promise<void> {
    this.wanted = false;
    this.reconnectNow = false;
    clearTimeout(this.reconnectTimer);
    const closing = this.closeSocket(reason);
    if (this.state !== 'revoked') this.state = 'offline';
    return closing;
  }

  goOnline(): void {
    if (this.stopped || this.wanted) return;
    this.wanted = true;
    this.backoffMs = this.options.reconnect.minMs;
    this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.goOffline('stopped');
    this.rejectWelcomeWaiters('the agent was stopped');
  }

  /** The current welcome when online, else the next one. */
  waitForWelcome(timeoutMs = 10_000): Promise<WelcomeMessage> {
    if (this.state === 'online' && this.welcome) return Promise.resolve(this.welcome);
    return this.nextWelcome(timeoutMs);
  }

  nextWelcome(timeoutMs = 10_000): Promise<WelcomeMessage> {
    if (this.stopped || this.state === 'revoked') {
      return Promise.reject(new Error(`no welcome will come: the agent is ${this.stopped ? 'stopped' : 'revoked'}`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.welcomeWaiters = this.welcomeWaiters.filter((waiter) => waiter !== entry);
        reject(new Error(`no welcome within ${timeoutMs} ms (state ${this.state})`));
      }, timeoutMs);
      const entry: WelcomeWaiter = {
        resolve: (welcome) => (clearTimeout(timer), resolve(welcome)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.welcomeWaiters.push(entry);
    });
  }

  private receive(socket: WebSocket, text: string): void {
    if (socket !== this.socket) return;
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (isWelcome(frame)) this.welcomed(socket, frame);
    else if (isCommand(frame)) this.options.onCommand(frame);
  }

  private welcomed(socket: WebSocket, welcome: WelcomeMessage): void {
    this.welcome = welcome;
    this.welcomedSocket = socket;
    this.state = 'online';
    this.backoffMs = this.options.reconnect.minMs;
    this.startHeartbeats(this.options.heartbeatSeconds ?? welcome.heartbeat_seconds);
    this.options.onWelcome(welcome);
    for (const waiter of this.welcomeWaiters.splice(0)) waiter.resolve(welcome);
  }

  private startHeartbeats(seconds: number): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => {
      if (this.heartbeatsEnabled) void this.send({ type: 'heartbeat' });
    }, seconds * 1000);
  }

  private closed(socket: WebSocket, code: number, reason: string, unauthorized: boolean): void {
    if (socket === this.welcomedSocket) {
      this.welcomedSocket = undefined;
      clearInterval(this.heartbeatTimer);
    }
    for (const resolve of this.closeWaiters.splice(0)) resolve();
    if (socket !== this.socket) return;
    this.socket = undefined;
    this.lastClose = { code, reason };
    if (code === CloseCodes.revoked || unauthorized) this.revoke(reason || String(code));
    else if (this.wanted) this.scheduleReconnection();
    this.options.onClose(this.lastClose);
  }

  private revoke(why: string): void {
    this.state = 'revoked';
    this.wanted = false;
    this.rejectWelcomeWaiters(`the credential was refused (${why})`);
  }

  private scheduleReconnection(): void {
    this.state = 'connecting';
    const delay = this.reconnectNow ? 0 : this.backoffMs;
    if (!this.reconnectNow) this.backoffMs = Math.min(this.backoffMs * 2, this.options.reconnect.maxMs);
    this.reconnectNow = false;
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }

  private closeSocket(reason: string): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.closeWaiters.push(resolve));
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000, reason);
    return closed;
  }

  private rejectWelcomeWaiters(why: string): void {
    for (const waiter of this.welcomeWaiters.splice(0)) waiter.reject(new Error(why));
  }
}
