import { chatFixtures } from './chat.fixtures';
import { defineModule } from '../../platform/modules';
import type { ChatActivities } from '../../../workflows/contracts/chat';
import { CHAT_EVENTS } from './chat.events';
import { chatRoutes } from './chat.routes';
import { createChatService, type ChatDependencies } from './chat.service';
import { createUnreadSummaries } from './chat.unread';

export const chatModule = defineModule({
  name: 'chat',
  fixtures: chatFixtures,
  uses: ['uploads', 'notifications'],
  create: ({ db }, deps: ChatDependencies) => createChatService(db, deps),
  events: CHAT_EVENTS,
  routes: (chat) => chatRoutes(chat),
  onHotelCreated: (chat, trx, hotelId) => chat.onHotelCreated(trx, hotelId),
  activities: (_chat, { db }, { notifications }): ChatActivities => ({
    pushUnreadChat: createUnreadSummaries(db, notifications),
  }),
  schedules: [{ scheduleId: 'unread-chat-push', workflowType: 'unreadChatPush', every: '15 minutes' }],
});
