import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '../../src/platform/db/knex';
import { pairAgent, startReferenceAgent, type ReferenceAgent } from '../fakes/agent';
import { fakeTTLockControl } from '../fakes/ttlock';
import { localDay } from '../helpers/dates';
import { faultClient, type FaultOwner } from '../helpers/fault-client';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { readStackInfo } from '../helpers/stack-env';
import { until } from '../helpers/wait';

/**
 * The worker dies (SIGKILL) while the desk is writing a card: the command waits on the agent's side, its reply is kept
 * in the outbox, and the restarted worker finishes the issuance. Exactly one card is written and recorded.
 */

jest.setTimeout(200_000);

let stack: FaultStack | undefined;
let db: Db | undefined;
let agent: ReferenceAgent | undefined;
const { call, expectStatus, registerAndSignIn } = faultClient(
  () => stack!,
  () => db!,
);

beforeAll(async () => {
  stack = await startFaultStack('cards');
  db = createDb(stack.databaseUrl, { role: 'migrations', poolMax: 3 });
  await Promise.all([stack.startWorker(), stack.startApi()]);
}, 150_000);

afterAll(async () => {
  await agent?.stop();
  await db?.destroy();
  await stack?.stop();
}, 60_000);

async function hotelWithLockedRoom(owner: FaultOwner) {
  const hotel = (rest: string) => `/api/hotels/${owner.slug}${rest}`;
  const account = {
    clientId: randomUUID().replaceAll('-', ''),
    clientSecret: randomUUID().replaceAll('-', ''),
    username: `crash_${randomUUID().slice(0, 8)}`,
    password: 'Пароль замков',
  };
  await fakeTTLockControl(readStackInfo().env.TTLOCK_API_URL).registerAccount(account);
  await expectStatus(
    200,
    call('PATCH', hotel('/lockvendor/config'), owner.token, {
      client_id: account.clientId,
      client_secret: account.clientSecret,
      username: account.username,
      password: account.password,
      enabled: true,
    }),
  );
  const category = await expectStatus(
    201,
    call('POST', hotel('/room-categories'), owner.token, { name: 'Стандарт', base_price: 4000 }),
  );
  const room = await expectStatus(
    201,
    call('POST', hotel('/rooms'), owner.token, { number: '201', category_id: category.id }),
  );
  await expectStatus(
    201,
    call('POST', hotel('/lockvendor/room-locks'), owner.token, {
      lock_mac: 'AA:BB:CC:DD:EE:20',
      room_id: room.id,
      build_no: 1,
      floor_no: 2,
    }),
  );
  const booking = await expectStatus(
    201,
    call('POST', hotel('/bookings'), owner.token, {
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(1),
      guest_last_name: 'Сидоров',
      guest_first_name: 'Сидор',
    }),
  );
  const workstation = await expectStatus(
    201,
    call('POST', hotel('/workstations'), owner.token, { name: 'Ресепшн', ttlock_com_port: 'COM3' }),
  );
  const code = await expectStatus(201, call('POST', hotel(`/workstations/${workstation.id}/pair-code`), owner.token));
  return { hotel, booking, workstation, pairCode: code.pair_code as string };
}

describe('card issuance through a worker crash', () => {
  it('SIGKILL of the worker while the desk writes: one card written, recorded once the worker is back', async () => {
    const owner = await registerAndSignIn();
    const { hotel, booking, workstation, pairCode } = await hotelWithLockedRoom(owner);
    const pairing = await pairAgent(stack!.apiUrl, pairCode);
    agent = startReferenceAgent({
      url: `${stack!.apiUrl.replace(/^http/, 'ws')}/agents/ws`,
      credential: pairing.credential,
      reconnect: { minMs: 100, maxMs: 500 },
    });
    await agent.waitForWelcome();
    // The encoder takes its time: the worker dies while the card is on it.
    agent.setSlow(3000);
    const issued = await expectStatus(
      202,
      call('POST', hotel('/lockvendor/issue-card'), owner.token, {
        booking_id: booking.id,
        workstation_id: workstation.id,
        sectors: [1, 2],
      }),
    );
    await until(
      async () =>
        (await db!('agent_commands').where({ workstation_id: workstation.id }).whereNotNull('delivered_at'))[0],
      { what: 'the write command delivered to the desk', timeoutMs: 60_000 },
    );
    await stack!.killWorker();
    await until(() => agent!.cards.length === 1, { what: 'the card written', timeoutMs: 30_000 });
    await until(
      async () =>
        (await db!('agent_commands').where({ workstation_id: workstation.id }).first()).status === 'succeeded',
      { what: "the desk's reply recorded", timeoutMs: 30_000 },
    );
    const whileDown = await expectStatus(200, call('GET', hotel(`/lockvendor/cards/${issued.id}`), owner.token));
    expect(whileDown.status).toBe('pending');

    await stack!.startWorker();
    const card = await until(
      async () => {
        const current = await expectStatus(200, call('GET', hotel(`/lockvendor/cards/${issued.id}`), owner.token));
        return current.status !== 'pending' && current;
      },
      { what: 'the issuance settled after the restart', timeoutMs: 90_000 },
    );
    expect(card).toMatchObject({ status: 'written', card_number: agent.cards[0].card_number });
    expect(agent.cards).toHaveLength(1);
    expect(agent.executed.filter((command) => command.type === 'write_card')).toHaveLength(1);
    expect(await db!('agent_commands').where({ workstation_id: workstation.id })).toHaveLength(1);
  });
});
