import { randomUUID } from 'node:crypto';
import { enqueueOutbox, startWorkflowMessage } from '../../src/platform/db/outbox';
import type { accountEmail } from '../../workflows/account-email.workflow';
import { createTestApp, type TestApp } from '../helpers/app';
import { registrationBody } from '../helpers/accounts';
import { waitForMessages } from '../helpers/mail';

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

async function waitUntilDelivered(ids: string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const pending = await t.db('outbox').whereIn('id', ids).whereNull('delivered_at');
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error('outbox rows not delivered');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('outbox relay', () => {
  it('delivers a message written twice (a crash between start and mark) as one workflow: one e-mail', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    await waitForMessages(body.email, 1);
    const user = await t.db('users').where({ email: body.email }).first();

    const message = startWorkflowMessage<typeof accountEmail>(
      'accountEmail',
      `email:confirmation:${user.id}:duplicate-${randomUUID()}`,
      [{ purpose: 'confirmation', userId: user.id }],
      { HotelSlug: 'dup-test' },
    );
    const before = await t.db('outbox').max('id as id').first();
    await enqueueOutbox(t.db, message);
    await enqueueOutbox(t.db, message);
    const ids = await t
      .db('outbox')
      .where('id', '>', before?.id ?? 0)
      .pluck('id');
    await waitUntilDelivered(ids.map(String));

    // Registration sent one e-mail; the doubled row adds exactly one more.
    const messages = await waitForMessages(body.email, 2);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await waitForMessages(body.email, 2)).toHaveLength(messages.length);
    expect(messages).toHaveLength(2);
  });

  it('writes nothing to deliver when the transaction that carried it rolls back', async () => {
    const marker = `rollback-${randomUUID()}`;
    await expect(
      t.db.transaction(async (trx) => {
        await enqueueOutbox(trx, { kind: 'signalWorkflow', workflowId: marker, signal: 'accepted', args: [] });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    const rows = await t.db('outbox').whereRaw("message->>'workflowId' = ?", [marker]);
    expect(rows).toHaveLength(0);
  });
});
