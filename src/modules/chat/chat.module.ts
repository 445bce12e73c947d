import { chatFixtures } from './chat.fixtures';
import { defineModule } from '../../platform/modules';
import { chatActivities } from './chat.activities';
import { CHAT_EVENTS } from './chat.events';
import { chatRoutes } from './chat.routes';
import { createChatService, type ChatDependencies } from './chat.service';
import { scrubbed } from '../../platform/personal-data';

export const chatModule = defineModule({
  name: 'chat',
  fixtures: chatFixtures,
  uses: ['uploads', 'notifications'],
  personalData: [scrubbed('chat_messages', 'hotel', [{ name: 'text' }])],
  create: ({ db }, deps: ChatDependencies) => createChatService(db, deps),
  events: CHAT_EVENTS,
  routes: (chat) => chatRoutes(chat),
  onHotelCreated: (chat, trx, hotelId) => chat.onHotelCreated(trx, hotelId),
  activities: chatActivities,
  schedules: [{ scheduleId: 'unread-chat-push', workflowType: 'unreadChatPush', every: '15 minutes' }],
});
