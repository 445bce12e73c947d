import type { ChatActivities } from '../../../workflows/contracts/chat';
import type { WorkerContext } from '../../platform/modules';
import type { ChatDependencies, ChatService } from './chat.service';
import { createUnreadSummaries } from './chat.unread';

/** The unread-message job's activity: each member of staff told once of what they have not read. */
export function chatActivities(
  _chat: ChatService,
  { db }: WorkerContext,
  { notifications }: ChatDependencies,
): ChatActivities {
  return { pushUnreadChat: createUnreadSummaries(db, notifications) };
}
