import type { CommandReply } from './protocol';

/** README: an agent remembers the ids it executed, with their replies, for at least 7 days. */
const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredReply {
  reply: CommandReply;
  storedAt: number;
}

/** The at-most-once memory: command id -> the reply it got the first time. */
export class ReplyStore {
  private readonly replies = new Map<string, StoredReply>();

  constructor(saved: [string, StoredReply][] = []) {
    for (const [id, stored] of saved) this.replies.set(id, stored);
  }

  get(id: string): CommandReply | undefined {
    return this.replies.get(id)?.reply;
  }

  remember(reply: CommandReply, now = Date.now()): void {
    this.replies.set(reply.id, { reply, storedAt: now });
    for (const [id, stored] of this.replies) {
      if (now - stored.storedAt > RETENTION_MS) this.replies.delete(id);
    }
  }

  toJSON(): [string, StoredReply][] {
    return [...this.replies];
  }
}
