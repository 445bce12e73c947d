import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../../activities';
import { createMailer } from '../../src/platform/mail';
import { createTestApp, type TestApp } from '../helpers/app';
import { registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { linkIn, messagesTo, tokenOf, waitForMessages } from '../helpers/mail';
import { readStackInfo } from '../helpers/stack-env';
import { problem } from '../helpers/problem';

const INVITE_PREFIX = 'http://app.test/accept-invite?token=';

let shortLived: TestApp;
let owner: RegisteredHotel;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  // The invitation lifetime is configuration, handed to the workflow as an argument: two seconds here.
  shortLived = createTestApp({ INVITATION_TTL_SECONDS: '2' });
  owner = await registerHotel(shortLived);
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection.close();
  await shortLived.close();
});

async function invite(t: TestApp, email: string): Promise<string> {
  const response = await t.http
    .post(`/api/hotels/${owner.slug}/users`)
    .set('Authorization', `Bearer ${owner.accessToken}`)
    .send({ name: 'Приглашённый', email, role: 'receptionist' })
    .expect(201);
  return response.body.id;
}

describe('staffInvitation workflow', () => {
  it('records the expiry when nobody accepts in time; the link then fails', async () => {
    const email = uniqueEmail('expiring');
    const userId = await invite(shortLived, email);
    const token = tokenOf(linkIn((await waitForMessages(email))[0], INVITE_PREFIX));

    const handle = client.workflow.getHandle(`invitation:${userId}`);
    expect(await handle.result()).toBe('expired');
    const description = await handle.describe();
    expect(description.typedSearchAttributes.getAll()).toEqual(
      expect.arrayContaining([expect.objectContaining({ value: owner.slug })]),
    );

    const list = await shortLived.http
      .get(`/api/hotels/${owner.slug}/users`)
      .set('Authorization', `Bearer ${owner.accessToken}`)
      .expect(200);
    expect(list.body.find((u: { id: string }) => u.id === userId)).toMatchObject({
      invitation_status: 'expired',
      active: false,
    });
    const response = await shortLived.http
      .post('/api/auth/accept-invite')
      .send({ token, password: '123456' })
      .expect(400);
    expect(response.body).toEqual(problem(400, 'validation_failed', 'Ссылка недействительна или истекла'));
  });

  it('ends as accepted when the member accepts first', async () => {
    const t = createTestApp();
    try {
      const email = uniqueEmail('accepting');
      const userId = await invite(t, email);
      const token = tokenOf(linkIn((await waitForMessages(email))[0], INVITE_PREFIX));
      await t.http.post('/api/auth/accept-invite').send({ token, password: 'welcome1' }).expect(200);
      expect(await client.workflow.getHandle(`invitation:${userId}`).result()).toBe('accepted');
      expect(await t.db('users').where({ id: userId }).first()).toMatchObject({
        invitation_status: 'accepted',
        active: true,
      });
    } finally {
      await t.close();
    }
  });
});

describe('sendInvitationEmail, as the worker registers it', () => {
  it('sends once per workflow run: a retry after the relay took the e-mail sends nothing more', async () => {
    const email = uniqueEmail('once');
    const userId = await invite(shortLived, email);
    await waitForMessages(email, 1); // the invitation's own workflow
    const mailer = createMailer(shortLived.config.smtpUrl, shortLived.config.mailFrom);
    const { sendInvitationEmail } = createActivities({
      db: shortLived.db,
      config: shortLived.config,
      mailer,
    }) as { sendInvitationEmail(userId: string): Promise<string> };
    const run = { workflowId: `invitation:${userId}`, runId: randomUUID() };
    const attempt = () => new MockActivityEnvironment({ workflowExecution: run }).run(sendInvitationEmail, userId);
    try {
      expect(await attempt()).toBe('sent');
      expect(await attempt()).toBe('already_sent');
      expect(await waitForMessages(email, 2)).toHaveLength(2);
      expect(await messagesTo(email)).toHaveLength(2);
    } finally {
      mailer.close();
    }
  });
});
