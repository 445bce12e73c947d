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
