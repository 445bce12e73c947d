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
  requests: {
    body: {
      'POST /api/hotels/:slug/chat/rooms': {
        base: (r, n) => ({ type: 'group', name: `Gate chat ${n}`, member_ids: [r.staff] }),
        control: true,
      },
      'POST /api/hotels/:slug/chat/rooms/:id/members': { base: (r) => ({ user_ids: [r.staff] }), control: true },
      'POST /api/hotels/:slug/chat/rooms/:id/read': { base: (r) => ({ message_id: r.chatMessage }), control: true },
      'POST /api/hotels/:slug/chat/rooms/:id/messages': {
        base: () => ({ text: 'Gate' }),
        variants: {
          attachment_url: {
            build: (r) => ({ attachment_url: r.upload }),
            uncontrolled: 'the seeded upload is a room photo, and only files of the chat folder are attachments (400)',
          },
        },
      },
      'POST /api/hotels/:slug/chat/typing': { base: (r) => ({ room_id: r.chatRoom }), control: true },
    },
    query: {
      'GET /api/hotels/:slug/chat/search': { base: (r) => ({ q: 'Gate', room_id: r.chatRoom }), control: true },
      'GET /api/hotels/:slug/chat/rooms/:id/messages': {
        base: () => ({}),
        variants: {
          before_id: (r) => ({ before: new Date(Date.now() + 60_000).toISOString(), before_id: r.chatMessage }),
        },
        control: true,
      },
    },
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
