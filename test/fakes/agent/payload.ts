import { CommandFailure } from './protocol';

/** Reading a command's payload: a missing or malformed field fails the command with `invalid_payload`. */
export type Payload = Record<string, unknown>;

export function invalidPayload(message: string): CommandFailure {
  return new CommandFailure('invalid_payload', message);
}

export function stringField(payload: Payload, field: string): string {
  const value = payload[field];
  if (typeof value !== 'string' || value === '') throw invalidPayload(`${field} must be a non-empty string`);
  return value;
}

export function integerField(payload: Payload, field: string): number {
  const value = payload[field];
  if (!Number.isInteger(value)) throw invalidPayload(`${field} must be an integer`);
  return value as number;
}

export function objectField(payload: Payload, field: string): Payload {
  const value = payload[field];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidPayload(`${field} must be an object`);
  }
  return value as Payload;
}

export function timeField(payload: Payload, field: string): number {
  const time = Date.parse(stringField(payload, field));
  if (Number.isNaN(time)) throw invalidPayload(`${field} must be an ISO date and time`);
  return time;
}
