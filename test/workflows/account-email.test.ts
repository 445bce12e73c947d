import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities';
import { createMailer } from '../../src/platform/mail';
import { startMailCatcher } from '../../scripts/stack/mail-catcher';
import { freePort } from '../../scripts/stack/ports';
import { createTestApp, type TestApp } from '../helpers/app';
import { registrationBody } from '../helpers/accounts';
import { messagesTo, waitForMessages } from '../helpers/mail';
import { readStackInfo } from '../helpers/stack-env';
import { until } from '../helpers/wait';

let t: TestApp;
beforeAll(() => {
  // The failed attempts are the point of this test; keep the SDK from logging each one.
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  t = createTestApp();
});
afterAll(() => t.close());

describe('accountEmail workflow', () => {
  it('keeps retrying while the mail server is down and delivers once it is back', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const user = await t.db('users').where({ email: body.email }).first();

    // A worker of this test's own, whose SMTP server does not exist yet.
    const smtpPort = await freePort();
    const mailer = createMailer(`smtp://127.0.0.1:${smtpPort}`, t.config.mailFrom);
    const address = readStackInfo().env.TEMPORAL_ADDRESS;
    const taskQueue = `test-email-${randomUUID()}`;
    const workerConnection = await NativeConnection.connect({ address });
    const worker = await Worker.create({
      connection: workerConnection,
      taskQueue,
      workflowsPath: require.resolve('../../workflows'),
      activities: createActivities({ db: t.db, config: t.config, mailer }),
    });
    const connection = await Connection.connect({ address });
    const client = new Client({ connection });
    const webPort = await freePort();
    let catcher: Awaited<ReturnType<typeof startMailCatcher>> | undefined;
    try {
      await worker.runUntil(async () => {
        const handle = await client.workflow.start('accountEmail', {
          taskQueue,
          workflowId: `email:confirmation:${user.id}:test-${randomUUID()}`,
          args: [{ purpose: 'confirmation', userId: user.id }],
        });
        // At least one attempt has failed against the missing server: the activity is on a later attempt.
        await until(async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) > 1, {
          what: 'a retry of the sending activity',
        });

        catcher = await startMailCatcher({ smtpPort, httpPort: webPort });
        await handle.result();
      });
      const messages = (await (await fetch(`${catcher!.webUrl}/api/messages?to=${body.email}`)).json()) as {
        text: string;
      }[];
      expect(messages).toHaveLength(1);
      expect(messages[0].text).toContain(user.confirmation_token);
    } finally {
      mailer.close();
      await catcher?.stop();
      await connection.close();
      await workerConnection.close();
    }
  });
});

describe('sendAccountEmail, as the worker registers it', () => {
  it('sends once per workflow: a retry after the relay took it sends nothing; a claim held elsewhere is waited for, then taken over', async () => {
    const body = registrationBody();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const user = await t.db('users').where({ email: body.email }).first();
    await waitForMessages(body.email, 1); // the registration's own e-mail
    const mailer = createMailer(t.config.smtpUrl, t.config.mailFrom);
    const { sendAccountEmail } = createActivities({ db: t.db, config: t.config, mailer }) as {
      sendAccountEmail(purpose: string, userId: string): Promise<string>;
    };
    const runId = randomUUID();
    const attempt = (workflowId: string) =>
      new MockActivityEnvironment({ workflowExecution: { workflowId, runId } }).run(
        sendAccountEmail,
        'confirmation',
        user.id,
      );
    try {
      const workflowId = `email:confirmation:${user.id}:test-${randomUUID()}`;
      expect(await attempt(workflowId)).toBe('sent');
      // The attempt's worker died after the relay took the e-mail: the retry finds it sent.
      expect(await attempt(workflowId)).toBe('already_sent');
      expect(await waitForMessages(body.email, 2)).toHaveLength(2);

      // Another attempt took this one on and may still be talking to the relay: fail, to look again on a retry.
      const heldElsewhere = `email:confirmation:${user.id}:test-${randomUUID()}`;
      await t.db('mail_claims').insert({ key: `account-email:${heldElsewhere}:${runId}` });
      await expect(attempt(heldElsewhere)).rejects.toMatchObject({ type: 'AccountEmailBusy' });
      // That attempt died between the claim and the record: nobody knows whether the relay took it, and a person
      // must not be locked out for want of a link, so it is sent again (once: the retry that took it over records it).
      await t
        .db('mail_claims')
        .where({ key: `account-email:${heldElsewhere}:${runId}` })
        .update({ claimed_at: t.db.raw("now() - interval '2 minutes'") });
      expect(await attempt(heldElsewhere)).toBe('sent');
      expect(await attempt(heldElsewhere)).toBe('already_sent');
      expect(await waitForMessages(body.email, 3)).toHaveLength(3);
      expect(await messagesTo(body.email)).toHaveLength(3);
    } finally {
      mailer.close();
    }
  });
});
