import { CommandFailure } from './protocol';

/** How a test makes the agent misbehave; the command runner consults these for every command it executes. */
export class CommandSwitches {
  slowMs = 0;
  private failing: { type: string; code: string } | undefined;
  /** Command type -> how many of its next replies to withhold. */
  private readonly repliesToDrop = new Map<string, number>();

  setFailing(type: string | undefined, code = 'device_busy'): void {
    this.failing = type === undefined ? undefined : { type, code };
  }

  /** The failure the failing switch imposes on a command of this type, if any. */
  imposedFailure(type: string): CommandFailure | undefined {
    if (this.failing?.type !== type) return undefined;
    return new CommandFailure(this.failing.code, `${type} made to fail by the test (${this.failing.code})`);
  }

  dropNextReply(type: string): void {
    this.repliesToDrop.set(type, (this.repliesToDrop.get(type) ?? 0) + 1);
  }

  /** Whether this fresh reply is to be lost; consumes one drop of its command type. */
  takeDrop(type: string): boolean {
    const remaining = this.repliesToDrop.get(type) ?? 0;
    if (remaining === 0) return false;
    if (remaining === 1) this.repliesToDrop.delete(type);
    else this.repliesToDrop.set(type, remaining - 1);
    return true;
  }
}
