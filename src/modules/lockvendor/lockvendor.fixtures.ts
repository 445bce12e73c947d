import type { ModuleFixtures } from '../../platform/fixtures';

/**
 * A door-lock cloud account (registered on the stack's lock cloud, signed in) with its one lock mapped to the seeded
 * room; the canary's last 12 hex digits are the lock's MAC, so two hotels' locks differ.
 */
export const lockvendorFixtures: ModuleFixtures = {
  needs: ['room'],
  records: {
    roomLock: { paths: ['/api/hotels/:slug/lockvendor/room-locks/:id'] },
    roomLockMac: { paths: ['/api/hotels/:slug/lockvendor/room-locks/by-mac/:mac'] },
  },
  requests: {
    body: {
      // The seed's room with no lock (its own lock's room is taken), and a MAC per call, none of the seed's.
      'POST /api/hotels/:slug/lockvendor/room-locks': {
        base: (r, n) => ({
          lock_mac: `0A0B0C0D${(n & 0xffff).toString(16).padStart(4, '0')}`,
          room_id: r.roomServiceRoom,
          build_no: 1,
          floor_no: 1,
        }),
        control: true,
      },
      // Any other change would sign A's hotel out of its lock account, which later calls of the sweep use.
      'PATCH /api/hotels/:slug/lockvendor/config': { base: () => ({ enabled: true }) },
    },
  },
  async seed({ request, outside, canary, records }) {
    const account = {
      client_id: `${canary}-app`,
      client_secret: `${canary}-client-secret`,
      username: `${canary}-locks`,
      password: `${canary}-password`,
    };
    const lockMac = canary.slice(-12).match(/../g)!.join(':').toUpperCase();
    await outside.ttlock({
      clientId: account.client_id,
      clientSecret: account.client_secret,
      username: account.username,
      password: account.password,
      locks: [{ lockId: 1, lockMac, lockAlias: `Door ${canary}` }],
    });
    await request('/lockvendor/config', { method: 'patch', body: { ...account, enabled: true } });
    await request('/lockvendor/token', { body: {}, status: 200 });
    const roomLock = await request<{ id: string }>('/lockvendor/room-locks', {
      body: { lock_mac: lockMac, room_id: records.room, build_no: 1, floor_no: 3, lock_alias: `Door ${canary}` },
    });
    return { roomLock: roomLock.id, roomLockMac: lockMac };
  },
};
