import Joi from 'joi';
import type { AgentError, CommandOutcome } from './agents.types';

/** Protocol 1 of `/agents/ws`, as the README documents it. */
export const AGENT_PROTOCOL_VERSION = 1;
export const AGENT_CHANNEL_PATH = '/agents/ws';
export const AGENT_HEARTBEAT_SECONDS = 30;
/** A presence not refreshed for this long is stale: its replica died without marking the workstation offline. */
export const AGENT_PRESENCE_STALE_MS = 3 * AGENT_HEARTBEAT_SECONDS * 1000;
export const AGENT_HELLO_TIMEOUT_MS = 10_000;
export const AGENT_MAX_FRAME_BYTES = 1024 * 1024;

export const AGENT_CLOSE = {
  revoked: 4003,
  protocolError: 4400,
  silent: 4408,
  replaced: 4409,
  goingAway: 1001,
  /** The server could not tell whether the credential still opens the channel: reconnect, and be asked again. */
  checkFailed: 1011,
} as const;

export interface Hello {
  type: 'hello';
  protocol: number;
  agent_version?: string;
  machine_name?: string;
  capabilities?: string[];
}

export type IncomingFrame = Hello | { type: 'heartbeat' } | ({ id: string } & CommandOutcome);

const agentError = Joi.object<AgentError>({
  code: Joi.string()
    .pattern(/^[a-z0-9_]{1,64}$/)
    .required(),
  message: Joi.string().max(2000).allow('').required(),
}).unknown(true);

const incomingFrame = Joi.alternatives().try(
  Joi.object({
    type: Joi.string().valid('hello').required(),
    protocol: Joi.number().integer().required(),
    agent_version: Joi.string().min(1).max(32),
    machine_name: Joi.string().min(1).max(100),
    capabilities: Joi.array().items(Joi.string().max(64)).max(100),
  }).unknown(true),
  Joi.object({ type: Joi.string().valid('heartbeat').required() }).unknown(true),
  Joi.object({
    id: Joi.string().uuid().required(),
    ok: Joi.boolean().valid(true).required(),
    result: Joi.object().unknown(true).default({}),
  }),
  Joi.object({
    id: Joi.string().uuid().required(),
    ok: Joi.boolean().valid(false).required(),
    error: agentError.required(),
  }),
);

/** The frame as the protocol defines it, or undefined for anything else (the connection is then closed with 4400). */
export function parseIncomingFrame(text: string): IncomingFrame | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const { value, error } = incomingFrame.validate(parsed, { convert: false });
  return error ? undefined : (value as IncomingFrame);
}
