import { WebSocket, type RawData } from 'ws';
import type { ReferenceAgent } from '../fakes/agent';
import { deskWithAgent } from '../helpers/desks';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { connectStaff, startTestServer, upgradeStatus, type TestServer } from '../helpers/realtime';
import { until } from '../helpers/wait';

/**
 * The agent channel at the wire: a bare WebSocket client plays the agent, so every frame of protocol 1 is what the test
 * sends and reads (the reference agent's own behaviour is tested with it elsewhere).
 */

/** This deployment publishes an agent release. */
const RELEASE = {
  AGENT_RELEASE_VERSION: '2.0.0',
  AGENT_RELEASE_URL: 'https://releases.example.test/hotel-agent-2.0.0.msi',
  AGENT_RELEASE_SHA256: 'ab'.repeat(32),
};

let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = await startTestServer(RELEASE, { agentHub: { heartbeatSeconds: 1, helloTimeoutMs: 500 } });
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const workstations = (hotel: RegisteredHotel, path = '') => `/api/hotels/${hotel.slug}/workstations${path}`;

interface Frame {
  type?: string;
  id?: string;
  payload?: Record<string, unknown>;
  [field: string]: unknown;
}

interface RawAgent {
  ws: WebSocket;
  frames: Frame[];
  next(predicate: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

function connectRaw(credential: string | undefined, headers: Record<string, string> = {}): Promise<RawAgent> {
  const ws = new WebSocket(t.agentsUrl, {
    headers: { ...(credential ? { Authorization: `Bearer ${credential}` } : {}), ...headers },
  });
  const frames: Frame[] = [];
  const wakers = new Set<() => void>();
  ws.on('message', (data: RawData) => {
    frames.push(JSON.parse(data.toString()) as Frame);
    for (const wake of wakers) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  let cursor = 0;
  const agent: RawAgent = {
    ws,
    frames,
    closed,
    send: (frame) => ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (predicate, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          for (let i = cursor; i < frames.length; i++) {
            if (predicate(frames[i])) {
              cursor = i + 1;
              wakers.delete(check);
              clearTimeout(timer);
              resolve(frames[i]);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          wakers.delete(check);
          reject(new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        wakers.add(check);
        check();
      }),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(agent));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

const handshakeStatus = (headers: Record<string, string>) => upgradeStatus(t.agentsUrl, undefined, { headers });

async function pairedWorkstation(hotel = owner) {
  const created = await t.http
    .post(workstations(hotel))
    .set(as(hotel.accessToken))
    .send({ name: 'Ресепшн' })
    .expect(201);
  const code = await t.http
    .post(workstations(hotel, `/${created.body.id}/pair-code`))
    .set(as(hotel.accessToken))
    .expect(201);
  const paired = await t.http.post('/api/agents/pair').send({ pair_code: code.body.pair_code }).expect(201);
  return { id: created.body.id as string, credential: paired.body.credential as string };
}

const hello = { type: 'hello', protocol: 1, agent_version: '1.4.2', machine_name: 'DESK-7' };

/** A connected agent that said hello and got its welcome. */
async function onlineAgent(credential: string) {
  const agent = await connectRaw(credential);
  agent.send(hello);
  await agent.next((frame) => frame.type === 'welcome');
  return agent;
}

/** Answers every command of `type` with `answer` (the agent side of a quick command). */
function answering(agent: RawAgent, type: string, answer: (frame: Frame) => Record<string, unknown>) {
  agent.ws.on('message', (data: RawData) => {
    const frame = JSON.parse(data.toString()) as Frame;
    if (frame.id && frame.type === type) agent.send({ id: frame.id, ...answer(frame) });
  });
}

const readWorkstation = async (id: string, hotel = owner) =>
  (
    await t.http
      .get(workstations(hotel, `/${id}`))
      .set(as(hotel.accessToken))
      .expect(200)
  ).body as {
    online: boolean;
    agent_version: string;
    machine_name: string;
  };

describe('the agent channel handshake', () => {
  it('an agent credential opens nothing but the agent channel', async () => {
    const { credential } = await pairedWorkstation();
    await t.http.get(workstations(owner)).set(as(credential)).expect(401);
    await t.http.get('/api/auth/me').set(as(credential)).expect(401);
  });

  it('refuses a missing, forged or revoked credential, and a staff access token', async () => {
    const { id, credential } = await pairedWorkstation();
    expect(await handshakeStatus({})).toBe(401);
    expect(await handshakeStatus({ Authorization: `Bearer ${'f'.repeat(64)}` })).toBe(401);
    expect(await handshakeStatus({ Authorization: `Bearer ${owner.accessToken}` })).toBe(401);
    expect(await handshakeStatus({ Authorization: `Bearer ${credential}` })).toBe(101);
    await t.http
      .post(workstations(owner, `/${id}/revoke`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(await handshakeStatus({ Authorization: `Bearer ${credential}` })).toBe(401);
  });

  it('welcomes a hello, marks the workstation online for staff, and offline when the agent leaves', async () => {
    const { id, credential } = await pairedWorkstation();
    const staff = await connectStaff(t.wsUrl, owner.accessToken);
    await staff.next((message) => message.type === 'connected');
    const agent = await connectRaw(credential);
    agent.send(hello);
    const welcome = await agent.next((frame) => frame.type === 'welcome');
    expect(welcome).toMatchObject({
      protocol: 1,
      workstation_id: id,
      hotel_slug: owner.slug,
      heartbeat_seconds: 1,
      latest_release: { version: expect.any(String) },
    });
    expect(await readWorkstation(id)).toMatchObject({ online: true, agent_version: '1.4.2', machine_name: 'DESK-7' });
    await staff.next((message) => message.type === 'workstation:online' && message.payload?.workstation_id === id);
    agent.ws.close();
    await staff.next((message) => message.type === 'workstation:offline' && message.payload?.workstation_id === id);
    expect((await readWorkstation(id)).online).toBe(false);
    await staff.close();
  });

  it('closes with 4400 without a hello in time, on a frame that is not protocol 1, and on a second hello', async () => {
    const { credential } = await pairedWorkstation();
    const silent = await connectRaw(credential);
    expect((await silent.closed).code).toBe(4400);
    const garbled = await connectRaw(credential);
    garbled.send('not json');
    expect((await garbled.closed).code).toBe(4400);
    const future = await connectRaw(credential);
    future.send({ ...hello, protocol: 2 });
    expect((await future.closed).code).toBe(4400);
    const twice = await onlineAgent(credential);
    twice.send(hello);
    expect((await twice.closed).code).toBe(4400);
  });

  it('closes a connection that falls silent (4408) and one replaced by a newer connection (4409)', async () => {
    const { id, credential } = await pairedWorkstation();
    const silent = await onlineAgent(credential);
    expect((await silent.closed).code).toBe(4408);
    await until(async () => !(await readWorkstation(id)).online, { what: 'offline after silence' });
    const first = await onlineAgent(credential);
    const beating = setInterval(() => first.ws.readyState === WebSocket.OPEN && first.send({ type: 'heartbeat' }), 300);
    const second = await onlineAgent(credential);
    expect((await first.closed).code).toBe(4409);
    clearInterval(beating);
    // The replaced connection closing does not take the new one offline.
    expect((await readWorkstation(id)).online).toBe(true);
    second.ws.close();
  });

  it('closes the open connection with 4003 as soon as the credential is revoked or replaced by pairing again', async () => {
    const revokedOne = await pairedWorkstation();
    const agent = await onlineAgent(revokedOne.credential);
    await t.http
      .post(workstations(owner, `/${revokedOne.id}/revoke`))
      .set(as(owner.accessToken))
      .expect(200);
    expect((await agent.closed).code).toBe(4003);

    const repaired = await pairedWorkstation();
    const old = await onlineAgent(repaired.credential);
    const code = await t.http
      .post(workstations(owner, `/${repaired.id}/pair-code`))
      .set(as(owner.accessToken))
      .expect(201);
    await t.http.post('/api/agents/pair').send({ pair_code: code.body.pair_code }).expect(201);
    expect((await old.closed).code).toBe(4003);

    const deleted = await pairedWorkstation();
    const orphan = await onlineAgent(deleted.credential);
    await t.http
      .delete(workstations(owner, `/${deleted.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect((await orphan.closed).code).toBe(4003);
  });

  it("a revocation noticed late closes only connections of the revoked credential, never the desk's new one", async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    answering(agent, 'list_ports', () => ({ ok: true, result: { ports: [{ name: 'COM5' }] } }));
    // The notice pairing again sends for the old credential, arriving after the new credential connected.
    await t.db.raw('select pg_notify(?, ?)', ['agent_revocations', id]);
    const ports = await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(ports.body.ports).toEqual([{ name: 'COM5' }]);
    expect(agent.ws.readyState).toBe(WebSocket.OPEN);
  });
});

describe('several API replicas', () => {
  let replica: TestServer;
  beforeAll(async () => {
    replica = await startTestServer(RELEASE, { agentHub: { heartbeatSeconds: 1, helloTimeoutMs: 500 } });
  });
  afterAll(() => replica.close());

  it('a staff request on one replica reaches the desk connected to another, and the reply comes back', async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    answering(agent, 'list_ports', () => ({ ok: true, result: { ports: [{ name: 'COM7' }] } }));
    const answer = await replica.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(answer.body).toEqual({ ports: [{ name: 'COM7' }] });
    agent.ws.close();
  });

  it('a newer connection on another replica replaces the older one; a revocation there closes it here', async () => {
    const { id, credential } = await pairedWorkstation();
    const first = await onlineAgent(credential);
    const beating = setInterval(() => first.ws.readyState === WebSocket.OPEN && first.send({ type: 'heartbeat' }), 300);
    const second = new WebSocket(replica.agentsUrl, { headers: { Authorization: `Bearer ${credential}` } });
    const secondClosed = new Promise<number>((resolve) => second.on('close', (code) => resolve(code)));
    await new Promise((resolve) => second.once('open', resolve));
    second.send(JSON.stringify(hello));
    expect((await first.closed).code).toBe(4409);
    clearInterval(beating);
    await replica.http
      .post(workstations(owner, `/${id}/revoke`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(await secondClosed).toBe(4003);
  });
});

describe('quick commands', () => {
  it('list-ports, printers and ping travel to the agent and back', async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    answering(agent, 'list_ports', () => ({ ok: true, result: { ports: [{ name: 'COM3', description: 'USB' }] } }));
    answering(agent, 'list_printers', () => ({
      ok: true,
      result: { printers: [{ name: 'Kyocera', is_default: true, extra: 'dropped' }] },
    }));
    answering(agent, 'ping', (frame) => ({
      ok: true,
      result: {
        host: frame.payload?.host,
        sent: 4,
        received: 3,
        replies: [
          { seq: 1, time_ms: 1.2 },
          { seq: 2, time_ms: 0.9 },
          { seq: 3, error: 'timeout' },
          { seq: 4, time_ms: 1 },
        ],
      },
    }));
    const ports = await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(ports.body).toEqual({ ports: [{ name: 'COM3', description: 'USB' }] });
    const printers = await t.http
      .get(workstations(owner, `/${id}/printers`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(printers.body).toEqual({ printers: [{ name: 'Kyocera', is_default: true }] });
    const ping = await t.http
      .post(workstations(owner, `/${id}/ping`))
      .set(as(owner.accessToken))
      .send({ host: '192.168.1.20' })
      .expect(200);
    expect(ping.body).toMatchObject({ host: '192.168.1.20', sent: 4, received: 3 });
    expect(ping.body.replies).toHaveLength(4);
    const received = agent.frames.filter((frame) => frame.id);
    expect(received.map((frame) => frame.type)).toEqual(['list_ports', 'list_printers', 'ping']);
    expect(received[2]).toMatchObject({ payload: { host: '192.168.1.20' }, expires_at: expect.any(String) });
    agent.ws.close();
  });

  it('a receptionist may run diagnostics; a bad host is a 400 that reaches no agent', async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    answering(agent, 'list_ports', () => ({ ok: true, result: { ports: [] } }));
    const receptionist = await addStaff(t, owner, 'receptionist');
    await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(receptionist.accessToken))
      .expect(200);
    await t.http
      .post(workstations(owner, `/${id}/ping`))
      .set(as(owner.accessToken))
      .send({ host: 'not a host; rm -rf' })
      .expect(400);
    expect(agent.frames.filter((frame) => frame.type === 'ping')).toHaveLength(0);
    agent.ws.close();
  });

  it('409 when the desk is offline, 504 when it does not answer, 502 with its words when it refuses', async () => {
    const { id, credential } = await pairedWorkstation();
    const offline = await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(409);
    expect(offline.body.code).toBe('workstation_offline');
    const agent = await onlineAgent(credential);
    const beating = setInterval(() => agent.ws.readyState === WebSocket.OPEN && agent.send({ type: 'heartbeat' }), 300);
    answering(agent, 'list_printers', () => ({
      ok: false,
      error: { code: 'device_busy', message: 'Spooler stopped' },
    }));
    const refused = await t.http
      .get(workstations(owner, `/${id}/printers`))
      .set(as(owner.accessToken))
      .expect(502);
    expect(refused.body).toMatchObject({
      code: 'agent_command_failed',
      detail: 'Устройство занято: Spooler stopped',
      agent_error: { code: 'device_busy', message: 'Spooler stopped' },
    });
    const silent = await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(504);
    expect(silent.body.code).toBe('agent_timeout');
    const expired = await t.db('agent_commands').where({ workstation_id: id, type: 'list_ports' }).first();
    expect(expired.status).toBe('expired');
    clearInterval(beating);
    agent.ws.close();
  }, 20_000);

  it('an answer off the protocol is a 502, not passed on', async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    answering(agent, 'list_ports', () => ({ ok: true, result: { ports: 'COM1' } }));
    const answer = await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(502);
    expect(answer.body.code).toBe('agent_bad_answer');
    agent.ws.close();
  });

  it("another hotel's staff cannot command our desk, and our desk never gets their commands", async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    await t.http
      .get(workstations(other, `/${id}/list-ports`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http.get(`/api/hotels/${owner.slug}/workstations/${id}/list-ports`).set(as(other.accessToken)).expect(403);
    expect(agent.frames.filter((frame) => frame.id)).toHaveLength(0);
    agent.ws.close();
  });
});

describe('stored commands', () => {
  it('a reply settles its command once; a repeated reply changes nothing', async () => {
    const { id, credential } = await pairedWorkstation();
    const agent = await onlineAgent(credential);
    agent.ws.on('message', (data: RawData) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type !== 'list_ports') return;
      agent.send({ id: frame.id, ok: true, result: { ports: [{ name: 'COM1' }] } });
      agent.send({ id: frame.id, ok: false, error: { code: 'device_busy', message: 'late' } });
    });
    await t.http
      .get(workstations(owner, `/${id}/list-ports`))
      .set(as(owner.accessToken))
      .expect(200);
    const row = await t.db('agent_commands').where({ workstation_id: id, type: 'list_ports' }).first();
    // Replies of one connection are recorded in order: once a later command is answered, the repeat was handled.
    answering(agent, 'list_printers', () => ({ ok: true, result: { printers: [] } }));
    await t.http
      .get(workstations(owner, `/${id}/printers`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(await t.db('agent_commands').where({ id: row.id }).first()).toMatchObject({
      status: 'succeeded',
      error: null,
      result: { ports: [{ name: 'COM1' }] },
    });
    agent.ws.close();
  });
});

describe('desk diagnostics and updates with the reference agent', () => {
  const running: ReferenceAgent[] = [];
  afterAll(() => Promise.all(running.map((agent) => agent.stop())));

  async function referenceDesk(agentVersion = '1.4.2', hotel = owner) {
    const desk = await deskWithAgent(t, hotel, {
      workstation: { name: `Ресепшн ${agentVersion}` },
      agent: { agentVersion },
    });
    running.push(desk.agent);
    return desk;
  }

  it('the welcome names the published release; update installs it and the desk comes back on it', async () => {
    const desk = await referenceDesk();
    expect(desk.agent.welcome).toMatchObject({ latest_release: { version: '2.0.0', url: RELEASE.AGENT_RELEASE_URL } });
    const updated = await t.http
      .post(workstations(owner, `/${desk.id}/update`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(updated.body).toEqual({ workstation_id: desk.id, version: '2.0.0', accepted: true });
    await until(async () => (await readWorkstation(desk.id)).agent_version === '2.0.0', { what: 'desk on 2.0.0' });
    const receptionist = await addStaff(t, owner, 'receptionist');
    await t.http
      .post(workstations(owner, `/${desk.id}/update`))
      .set(as(receptionist.accessToken))
      .expect(403);
  });

  it('update-all tells every connected desk on another version, and reports each answer', async () => {
    const hotel = await registerHotel(t);
    const make = async (version: string) => (await referenceDesk(version, hotel)).id;
    const [old1, old2, current] = [await make('1.0.0'), await make('1.5.0'), await make('2.0.0')];
    const answer = await t.http.post(workstations(hotel, '/update-all')).set(as(hotel.accessToken)).expect(200);
    expect(answer.body).toMatchObject({ version: '2.0.0', requested: 2 });
    expect(answer.body.results.map((result: { workstation_id: string }) => result.workstation_id).sort()).toEqual(
      [old1, old2].sort(),
    );
    expect(answer.body.results.every((result: { accepted: boolean }) => result.accepted)).toBe(true);
    expect(answer.body.results.map((result: { workstation_id: string }) => result.workstation_id)).not.toContain(
      current,
    );
  });

  it('test-device opens the device as configured: an unknown port is the desk’s refusal, a known one answers', async () => {
    const desk = await referenceDesk();
    const device = async (comPort: string) =>
      (
        await t.http
          .post(workstations(owner, `/${desk.id}/devices`))
          .set(as(owner.accessToken))
          .send({ name: `Принтер ${comPort}`, type: 'printer', connection: 'com', com_port: comPort })
          .expect(201)
      ).body.id as string;
    const present = await t.http
      .post(workstations(owner, `/${desk.id}/test-device`))
      .set(as(owner.accessToken))
      .send({ device_id: await device('COM1') })
      .expect(200);
    expect(present.body).toMatchObject({ message: expect.any(String) });
    const missing = await t.http
      .post(workstations(owner, `/${desk.id}/test-device`))
      .set(as(owner.accessToken))
      .send({ device_id: await device('COM9') })
      .expect(502);
    expect(missing.body).toMatchObject({ agent_error: { code: 'device_not_found' } });
    expect(missing.body.detail).toMatch(/^Устройство не найдено/);
  });

  it('the maintenance sweep forgets finished commands after a week, never pending ones', async () => {
    const { id } = await pairedWorkstation();
    const [old] = await t
      .db('agent_commands')
      .insert({
        hotel_id: owner.hotelId,
        workstation_id: id,
        type: 'list_ports',
        durable: false,
        status: 'succeeded',
        result: {},
        expires_at: new Date(),
        completed_at: new Date(Date.now() - 8 * 86_400_000),
      })
      .returning('id');
    const [waiting] = await t
      .db('agent_commands')
      .insert({
        hotel_id: owner.hotelId,
        workstation_id: id,
        type: 'list_ports',
        durable: false,
        expires_at: new Date(Date.now() + 60_000),
      })
      .returning('id');
    // Its count is not this test's: on the shared stack the maintenance sweep (another file runs it) may purge first.
    await t.services.agents.purgeFinishedCommands();
    expect(await t.db('agent_commands').where({ id: old.id }).first()).toBeUndefined();
    expect(await t.db('agent_commands').where({ id: waiting.id }).first()).toBeDefined();
  });
});
