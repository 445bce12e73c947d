import { setTimeout as sleep } from 'node:timers/promises';
import type { Payload } from './payload';
import { CommandFailure, type AgentCommand, type CommandReply } from './protocol';
import type { ReplyStore } from './reply-store';
import type { CommandSwitches } from './switches';

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
    if (this.switches.slowMs > 0) await sleep(this.switches.slowMs);
    const reply = await this.outcome(command);
    this.store.remember(reply);
    this.onReplyStored();
    return reply;
  }

  private async outcome({ id, type, payload, expires_at }: AgentCommand): Promise<CommandReply> {
    try {
      // The operation that asked for an expired command has already reported the desk unreachable.
      if (expires_at !== undefined && Date.parse(expires_at) < Date.now()) {
        throw new CommandFailure('timeout', `The command expired at ${expires_at} before it was executed`);
      }
      const handler = this.handlers.get(type);
      if (!handler) throw new CommandFailure('unsupported_command', `This agent does not know ${type}`);
      this.executed.push({ id, type });
      const imposed = this.switches.imposedFailure(type);
      if (imposed) throw imposed;
      return { id, ok: true, result: await handler(payload ?? {}) };
    } catch (error) {
      if (error instanceof CommandFailure)
        return { id, ok: false, error: { code: error.code, message: error.message } };
      return { id, ok: false, error: { code: 'agent_error', message: String(error) } };
    }
  }
}
