import { loadAgentState, saveAgentState } from './agent-state-file';
import { CommandRunner, type CommandHandler } from './command-runner';
import { AgentConnection, type AgentState, type ReconnectBackoff } from './connection';
import { CardEncoder } from './devices/card-encoder';
import { Desk, DEFAULT_PRINTERS, type PrinterInfo } from './devices/desk';
import { FiscalRegister } from './devices/fiscal-register';
import { invalidPayload, stringField, type Payload } from './payload';
import {
  PROTOCOL_VERSION,
  type AgentCommand,
  type CommandReply,
  type HelloMessage,
  type WelcomeMessage,
} from './protocol';
import { ReplyStore } from './reply-store';
import { CommandSwitches } from './switches';

export interface ReferenceAgentOptions {
  /** ws://host:port/agents/ws */
  url: string;
  credential: string;
  agentVersion?: string;
  machineName?: string;
  /** Defaults to every command type this agent executes. */
  capabilities?: string[];
  reconnect?: ReconnectBackoff;
  /** Overrides the welcome's heartbeat_seconds. */
  heartbeatSeconds?: number;
  /** The desk's serial ports. */
  ports?: string[];
  printers?: PrinterInfo[];
  /** The serial port the card encoder is on. */
  encoderPort?: string;
  /** Hosts whose echo requests all time out. */
  unreachableHosts?: string[];
  /** A JSON file keeping the stored replies and device counters across agent processes. */
  stateFile?: string;
  onEvent?: (event: AgentEvent) => void;
}

export type AgentEvent =
  | { type: 'welcome'; welcome: WelcomeMessage }
  | { type: 'exchange'; command: AgentCommand; reply: CommandReply; redelivered: boolean; sent: boolean }
  | { type: 'update'; from: string; to: string }
  | { type: 'close'; code: number; reason: string };

const MAX_AGENT_VERSION_LENGTH = 32;

/** A running reference agent: what it did, and the switches a test turns. */
export class ReferenceAgent {
  readonly encoder: CardEncoder;
  readonly fiscalRegister: FiscalRegister;
  readonly desk: Desk;
  private readonly switches = new CommandSwitches();
  private readonly replies: ReplyStore;
  private readonly runner: CommandRunner;
  private readonly connection: AgentConnection;
  private readonly capabilities: string[];
  private version: string;
  private pendingVersion: string | undefined;

  constructor(private readonly options: ReferenceAgentOptions) {
    const saved = loadAgentState(options.stateFile);
    const ports = options.ports ?? ['COM1', 'COM3'];
    const encoderPort = options.encoderPort ?? 'COM3';
    this.version = options.agentVersion ?? '1.4.2';
    this.encoder = new CardEncoder(encoderPort, ports, saved?.encoder);
    this.fiscalRegister = new FiscalRegister(saved?.fiscal);
    this.desk = new Desk(ports, options.printers ?? DEFAULT_PRINTERS, encoderPort, options.unreachableHosts);
    this.replies = new ReplyStore(saved?.replies);
    const handlers = this.handlers();
    this.capabilities = options.capabilities ?? [...handlers.keys()];
    this.runner = new CommandRunner(handlers, this.replies, this.switches, () => this.saveState());
    this.connection = new AgentConnection({
      url: options.url,
      credential: options.credential,
      reconnect: options.reconnect ?? { minMs: 1000, maxMs: 60_000 },
      heartbeatSeconds: options.heartbeatSeconds,
      hello: () => this.hello(),
      onCommand: (command) => void this.process(command),
      onWelcome: (welcome) => options.onEvent?.({ type: 'welcome', welcome }),
      onClose: (close) => options.onEvent?.({ type: 'close', ...close }),
    });
    this.connection.open();
  }

  get state(): AgentState {
    return this.connection.state;
  }

  get welcome(): WelcomeMessage | undefined {
    return this.connection.welcome;
  }

  get lastClose(): { code: number; reason: string } | undefined {
    return this.connection.lastClose;
  }

  get agentVersion(): string {
    return this.version;
  }

  get executed(): readonly { id: string; type: string }[] {
    return this.runner.executed;
  }

  get redeliveries(): number {
    return this.runner.redeliveries;
  }

  get cards() {
    return this.encoder.cards;
  }

  get cancelledCards() {
    return this.encoder.cancelledCards;
  }

  get receipts() {
    return this.fiscalRegister.receipts;
  }

  waitForWelcome(timeoutMs?: number): Promise<WelcomeMessage> {
    return this.connection.waitForWelcome(timeoutMs);
  }

  /** Waits for a welcome after the current one, e.g. the one following an update. */
  nextWelcome(timeoutMs?: number): Promise<WelcomeMessage> {
    return this.connection.nextWelcome(timeoutMs);
  }

  goOffline(): Promise<void> {
    return this.connection.goOffline();
  }

  goOnline(): void {
    this.connection.goOnline();
  }

  stop(): Promise<void> {
    return this.connection.stop();
  }

  setSlow(ms: number): void {
    this.switches.slowMs = ms;
  }

  setFailing(commandType: string | undefined, code?: string): void {
    this.switches.setFailing(commandType, code);
  }

  dropNextReply(commandType: string): void {
    this.switches.dropNextReply(commandType);
  }

  /** Silent agents are closed by the server with 4408 after two heartbeat intervals. */
  setHeartbeats(enabled: boolean): void {
    this.connection.heartbeatsEnabled = enabled;
  }

  setCardPresent(present: boolean): void {
    this.encoder.setCardPresent(present);
  }

  /** Puts an already written card (a guest's, brought back) on the encoder. */
  placeCard(cardNumber: string): void {
    this.encoder.placeCard(cardNumber);
  }

  /** The desk's serial driver names its ports as C strings: U+0000 reaches list_ports and the encoder's words. */
  setNulTerminatedPorts(on: boolean): void {
    this.desk.nulTerminatedPorts = on;
    this.encoder.nulTerminatedPorts = on;
  }

  setFiscalRefusal(message: string | undefined): void {
    this.fiscalRegister.refusal = message;
  }

  setUnreachable(host: string, unreachable = true): void {
    if (unreachable) this.desk.unreachableHosts.add(host);
    else this.desk.unreachableHosts.delete(host);
  }

  private hello(): HelloMessage {
    return {
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      agent_version: this.version,
      machine_name: this.options.machineName ?? 'DESK-1',
      capabilities: this.capabilities,
    };
  }

  private handlers(): Map<string, CommandHandler> {
    return new Map<string, CommandHandler>([
      ['ping', (payload) => this.desk.ping(payload)],
      ['list_ports', () => this.desk.listPorts()],
      ['list_printers', () => this.desk.listPrinters()],
      ['test_device', (payload) => this.desk.testDevice(payload)],
      ['update', (payload) => this.acceptUpdate(payload)],
      ['dll_info', (payload) => this.encoder.dllInfo(payload)],
      ['write_card', (payload) => this.encoder.writeCard(payload)],
      ['cancel_card', (payload) => this.encoder.cancelCard(payload)],
      ['fiscal_receipt', (payload) => this.fiscalRegister.execute(payload)],
      ['http_request', (payload) => this.desk.httpRequest(payload)],
    ]);
  }

  /** The update is installed once its acceptance is on the wire: see process. */
  private acceptUpdate(payload: Payload): { accepted: true } {
    const version = stringField(payload, 'version');
    if (version.length > MAX_AGENT_VERSION_LENGTH) {
      throw invalidPayload(`version is longer than ${MAX_AGENT_VERSION_LENGTH} characters`);
    }
    this.pendingVersion = version;
    return { accepted: true };
  }

  private async process(command: AgentCommand): Promise<void> {
    const { reply, redelivered, send } = await this.runner.run(command);
    const sent = send && (await this.connection.send(reply));
    this.options.onEvent?.({ type: 'exchange', command, reply, redelivered, sent });
    if (this.pendingVersion !== undefined) this.installUpdate(this.pendingVersion);
  }

  private installUpdate(version: string): void {
    this.options.onEvent?.({ type: 'update', from: this.version, to: version });
    this.version = version;
    this.pendingVersion = undefined;
    this.connection.reconnect('updating');
  }

  private saveState(): void {
    if (this.options.stateFile === undefined) return;
    saveAgentState(this.options.stateFile, {
      replies: this.replies.toJSON(),
      encoder: this.encoder.snapshot(),
      fiscal: this.fiscalRegister.snapshot(),
    });
  }
}

/** Starts an agent connecting at once; `await agent.waitForWelcome()` before sending it commands. */
export function startReferenceAgent(options: ReferenceAgentOptions): ReferenceAgent {
  return new ReferenceAgent(options);
}
