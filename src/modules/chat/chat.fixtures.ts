import type { ModuleFixtures } from '../../platform/fixtures';

/**
 * A group chat with the housekeeper and a message in it, read by its member (the unread-message job has nothing of
 * the seed to sum up mid-sweep).
 */
export const chatFixtures: ModuleFixtures = {
  needs: ['staff'],
  records: {
    chatRoom: {
      paths: ['/api/hotels/:slug/chat/rooms/:id'],
      fields: ['POST /api/hotels/:slug/chat/typing room_id', 'GET /api/hotels/:slug/chat/search room_id'],
    },
    chatMessage: {
      paths: ['/api/hotels/:slug/chat/messages/:id'],
      fields: [
        'POST /api/hotels/:slug/chat/rooms/:id/read message_id',
        'GET /api/hotels/:slug/chat/rooms/:id/messages before_id',
      ],
    },
    staff: { paths: ['/api/hotels/:slug/chat/rooms/:id/members/:userId'], fields: ['member_ids', 'user_ids'] },
    upload: { fields: ['POST /api/hotels/:slug/chat/rooms/:id/messages attachment_url'] },
  },
  async seed({ request, db, hotelId, canary, records }) {
    const room = await request<{ id: string }>('/chat/rooms', {
      body: { type: 'group', name: `Chat ${canary}`, member_ids: [records.staff] },
    });
    const message = await request<{ id: string }>(`/chat/rooms/${room.id}/messages`, {
      body: { text: `Message ${canary}` },
    });
    await db('chat_reads').insert({
      hotel_id: hotelId,
      room_id: room.id,
      user_id: records.staff,
      last_read_at: db.fn.now(),
    });
    return { chatRoom: room.id, chatMessage: message.id };
  },
};
