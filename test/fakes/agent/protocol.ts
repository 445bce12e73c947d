/** Protocol 1 of the agent channel, as README "Workstation agents" defines it, seen from the agent. */
export const PROTOCOL_VERSION = 1;

export interface HelloMessage {
  type: 'hello';
  protocol: typeof PROTOCOL_VERSION;
  agent_version: string;
  machine_name: string;
  capabilities: string[];
}

export interface WelcomeMessage {
  type: 'welcome';
  protocol: number;
  workstation_id: string;
  hotel_slug: string;
  heartbeat_seconds: number;
  latest_release?: { version: string; [field: string]: unknown } | null;
}

export interface AgentCommand {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  expires_at?: string;
}

export interface ReplyError {
  code: string;
  message: string;
}

export type CommandReply = { id: string; ok: true; result: unknown } | { id: string; ok: false; error: ReplyError };

/** The close codes the server uses; any other close is followed by a reconnection. */
export const CloseCodes = {
  revoked: 4003,
  protocolError: 4400,
  silentTooLong: 4408,
  replaced: 4409,
  goingAway: 1001,
} as const;

/** A failed command: its code and message become the reply's `error`. */
export class CommandFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CommandFailure';
  }
}

export function isCommand(frame: unknown): frame is AgentCommand {
  const candidate = frame as Partial<AgentCommand> | null;
  return typeof candidate?.id === 'string' && typeof candidate.type === 'string';
}

export function isWelcome(frame: unknown): frame is WelcomeMessage {
  return (frame as Partial<WelcomeMessage> | null)?.type === 'welcome';
}
