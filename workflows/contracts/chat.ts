/** The unread-message job's contract (schedule `unread-chat-push`, every 15 minutes); the chat module implements it. */

export interface UnreadChatReport {
  /** Members of staff told of their unread messages this run (one summary each). */
  summaries: number;
}

export interface ChatActivities {
  /** Idempotent: a message is summed up for a member once, however often the job runs or retries. */
  pushUnreadChat(): Promise<UnreadChatReport>;
}
