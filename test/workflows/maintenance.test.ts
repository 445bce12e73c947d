import { Client, Connection } from '@temporalio/client';
import { sha256Hex } from '../../src/platform/crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerHotel } from '../helpers/accounts';
import { readStackInfo } from '../helpers/stack-env';
import { runSchedule } from '../helpers/workflows';

let t: TestApp;
let connection: Connection;
beforeAll(async () => {
  t = createTestApp();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
});
afterAll(async () => {
  await connection.close();
  await t.close();
});

describe('maintenance-sweep schedule', () => {
  it('is registered by the worker and removes expired sessions and closed rate-limit windows, nothing live', async () => {
    const owner = await registerHotel(t);
    const expiredHash = sha256Hex(`expired-${owner.userId}`);
    await t.db('sessions').insert({
      user_id: owner.userId,
      token_hash: expiredHash,
      payload: JSON.stringify({}),
      expires_at: t.db.raw("now() - interval '1 minute'"),
    });
    const staleKey = `test:ip:stale-${owner.userId}`;
    await t.db('rate_limit_counters').insert({
      key: staleKey,
      window_started_at: t.db.raw("now() - interval '1 day'"),
      hits: 5,
    });

    // A budget of an hour (a room's stay-code guesses), 20 minutes into its window: still counting.
    const hourKey = `test:ip:hour-${owner.userId}`;
    await t.db('rate_limit_counters').insert({
      key: hourKey,
      window_started_at: t.db.raw("now() - interval '20 minutes'"),
      window_seconds: 3600,
      hits: 5,
    });

    // E-mail claims: one sent long ago goes; a recent one, and one whose fate is unknown, stay.
    const claim = (name: string) => `test:${name}-${owner.userId}`;
    await t.db('mail_claims').insert([
      {
        key: claim('old'),
        claimed_at: t.db.raw("now() - interval '40 days'"),
        sent_at: t.db.raw("now() - interval '40 days'"),
      },
      { key: claim('recent'), sent_at: t.db.fn.now() },
      { key: claim('in-doubt'), claimed_at: t.db.raw("now() - interval '40 days'") },
    ]);

    const client = new Client({ connection });
    const { spec } = await client.schedule.getHandle('maintenance-sweep').describe();
    expect(spec.intervals?.[0]?.every).toBe(3_600_000);
    await runSchedule(client, 'maintenance-sweep');
    expect(await t.db('sessions').where({ token_hash: expiredHash }).first()).toBeUndefined();
    expect(await t.db('rate_limit_counters').where({ key: staleKey }).first()).toBeUndefined();
    expect(await t.db('rate_limit_counters').where({ key: hourKey }).first()).toMatchObject({ hits: 5 });
    const claims = await t.db('mail_claims').whereIn('key', [claim('old'), claim('recent'), claim('in-doubt')]);
    expect(claims.map((row: { key: string }) => row.key).sort()).toEqual([claim('in-doubt'), claim('recent')]);
    // The owner's live session survives and still refreshes.
    await t.http.post('/api/auth/refresh').set('Cookie', owner.refreshCookie).expect(200);
  });
});
