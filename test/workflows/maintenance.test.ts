import { Client, Connection } from '@temporalio/client';
import { sha256Hex } from '../../src/platform/crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerHotel } from '../helpers/accounts';
import { readStackInfo } from '../helpers/stack-env';
import { until } from '../helpers/wait';

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

    const client = new Client({ connection });
    const schedule = client.schedule.getHandle('maintenance-sweep');
    const description = await schedule.describe();
    expect(description.spec.intervals?.[0]?.every).toBe(3_600_000);
    const sweepsBefore = new Set(description.info.recentActions.map(({ action }) => action.workflow.workflowId));
    await schedule.trigger();

    const sweep = await until(
      async () =>
        (await schedule.describe()).info.recentActions.find(
          ({ action }) => !sweepsBefore.has(action.workflow.workflowId),
        )?.action.workflow,
      { what: 'the triggered sweep started' },
    );
    await client.workflow.getHandle(sweep.workflowId, sweep.firstExecutionRunId).result();
    expect(await t.db('sessions').where({ token_hash: expiredHash }).first()).toBeUndefined();
    expect(await t.db('rate_limit_counters').where({ key: staleKey }).first()).toBeUndefined();
    // The owner's live session survives and still refreshes.
    await t.http.post('/api/auth/refresh').set('Cookie', owner.refreshCookie).expect(200);
  });
});
