import { setTimeout as sleep } from 'node:timers/promises';
import type { Payload } from './payload';
import { CommandFailure, type AgentCommand, type CommandReply } from './protocol';
import type { ReplyStore } from './reply-store';
import type { CommandSwitches } from './switches';

/** README: frames are JSON text of at most 1 MiB. */
const MAX_FRAME_BYTES = 1024 * 1024;

export type CommandHandler = (payload: Payload) => unknown;

export interface CommandOutcome {
  reply: CommandReply;
  /** The id was seen before: this is its stored reply, nothing was executed. */
  redelivered: boolean;
  /** False when the dropNextReply switch swallows this reply. */
  send: boolean;
}

/** Executes each command id at most once, answering repeats with the reply the first execution stored. */
export class CommandRunner {
  readonly executed: { id: string; type: string }[] = [];
  redeliveries = 0;
  /** Executions not finished yet: a repeat arriving meanwhile waits for their reply instead of running again. */
  private readonly running = new Map<string, Promise<CommandReply>>();

  constructor(
    private readonly handlers: ReadonlyMap<string, CommandHandler>,
    private readonly store: ReplyStore,
    private readonly switches: CommandSwitches,
    private readonly onReplyStored: () => void,
  ) {}

  async run(command: AgentCommand): Promise<CommandOutcome> {
    // Looked up before any await: a repeat arriving in between must find the execution already registered.
    const known = this.store.get(command.id) ?? this.running.get(command.id);
    if (known) {
      this.redeliveries += 1;
      return { reply: await known, redelivered: true, send: true };
    }
    const execution = this.execute(command);
    this.running.set(command.id, execution);
    const reply = await execution.finally(() => this.running.delete(command.id));
    return { reply, redelivered: false, send: !this.switches.takeDrop(command.type) };
  }

  private async execute(command: AgentCommand): Promise<CommandReply> {
    let reply: CommandReply;
    try {
      reply = { id: command.id, ok: true, result: await this.perform(command) };
    } catch (error) {
      const failure = error instanceof CommandFailure ? error : new CommandFailure('agent_error', String(error));
      reply = { id: command.id, ok: false, error: { code: failure.code, message: failure.message } };
    }
    this.store.remember(reply);
    this.onReplyStored();
    return reply;
  }

  private async perform({ id, type, payload, expires_at }: AgentCommand): Promise<unknown> {
    // Judged on arrival: the operation that asked for an expired command has already reported the desk unreachable.
    if (expires_at !== undefined && Date.parse(expires_at) < Date.now()) {
      throw new CommandFailure('timeout', `The command expired at ${expires_at} before it reached the desk`);
    }
    const handler = this.handlers.get(type);
    if (!handler) throw new CommandFailure('unsupported_command', `This agent does not know ${type}`);
    if (this.switches.slowMs > 0) await sleep(this.switches.slowMs);
    this.executed.push({ id, type });
    const imposed = this.switches.imposedFailure(type);
    if (imposed) throw imposed;
    const result = await handler(payload ?? {});
    if (Buffer.byteLength(JSON.stringify({ id, ok: true, result })) > MAX_FRAME_BYTES) {
      throw new CommandFailure('reply_too_large', `The result of ${type} does not fit in one frame (1 MiB)`);
    }
    return result;
  }
}
