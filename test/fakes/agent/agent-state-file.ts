import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { CardEncoderSnapshot } from './devices/card-encoder';
import type { FiscalRegisterSnapshot } from './devices/fiscal-register';
import type { StoredReply } from './reply-store';

/** What a restarted agent process must not forget: the replies it gave, and its devices' counters. */
export interface SavedAgentState {
  replies: [string, StoredReply][];
  encoder: CardEncoderSnapshot;
  fiscal: FiscalRegisterSnapshot;
}

export function loadAgentState(path: string | undefined): SavedAgentState | undefined {
  if (path === undefined || !existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as SavedAgentState;
}

/** Written aside then renamed, so a process killed mid-write leaves the previous state whole. */
export function saveAgentState(path: string, state: SavedAgentState): void {
  const pending = `${path}.${process.pid}.tmp`;
  writeFileSync(pending, JSON.stringify(state));
  renameSync(pending, path);
}
