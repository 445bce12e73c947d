import { proxyActivities } from '@temporalio/workflow';
import type { ChatActivities, UnreadChatReport } from './contracts/chat';

const { pushUnreadChat } = proxyActivities<ChatActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run by a schedule: each member of staff with chat messages unread since the last run gets one summary. */
export async function unreadChatPush(): Promise<UnreadChatReport> {
  return pushUnreadChat();
}
