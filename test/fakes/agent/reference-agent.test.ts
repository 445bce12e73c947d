import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  pairAgent,
  startReferenceAgent,
  type CommandReply,
  type ReferenceAgent,
  type ReferenceAgentOptions,
} from './index';
import { ProtocolServer } from './protocol-server';

const CREDENTIAL = 'agent-credential-for-tests';
/** Long enough for a reply or a reconnection that is not coming to have come, on a loaded machine too. */
const QUIET_MS = 150;

let server: ProtocolServer;
const agents: ReferenceAgent[] = [];

beforeEach(async () => {
  server = await ProtocolServer.start(CREDENTIAL);
});

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
  await server.close();
});

function startAgent(options: Partial<ReferenceAgentOptions> = {}): ReferenceAgent {
  const agent = startReferenceAgent({
    url: server.url,
    credential: CREDENTIAL,
    reconnect: { minMs: 20, maxMs: 200 },
    ...options,
  });
  agents.push(agent);
  return agent;
}

async function onlineAgent(options: Partial<ReferenceAgentOptions> = {}) {
  const agent = startAgent(options);
  const connection = await server.nextConnection();
  await agent.waitForWelcome();
  return { agent, connection };
}

function result(reply: CommandReply): unknown {
  if (!reply.ok) throw new Error(`expected a success, got ${JSON.stringify(reply.error)}`);
  return reply.result;
}

function errorCode(reply: CommandReply): string | undefined {
  return reply.ok ? undefined : reply.error.code;
}

interface HttpExchange {
  method: string;
  url: string;
  body: string;
}

/** Runs `use` against a one-off HTTP server answering every request with `answer`'s status, headers and body. */
async function withHttpServer(
  answer: (request: HttpExchange) => { status: number; headers?: Record<string, string>; body: string },
  use: (baseUrl: string) => Promise<void>,
): Promise<void> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { status, headers, body: answerBody } = answer({ method: request.method!, url: request.url!, body });
      response.writeHead(status, headers).end(answerBody);
    });
  }).listen(0, '127.0.0.1');
  try {
    await once(server, 'listening');
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.close();
  }
}

const card = {
  com_port: 'COM3',
  hotel_info: 'hotel-info-blob',
  build_no: 1,
  floor_no: 2,
  lock_macs: ['AA:BB:CC:DD:EE:01'],
  sectors: [1, 2, 16],
  valid_from: '2026-11-24T14:00:00Z',
  valid_until: '2026-11-26T12:00:00Z',
};

function sellTask(amounts: number[], paid: number, type = 'sell') {
  return {
    device: { id: 'fr-1', type: 'fiscal_register' },
    task: {
      type,
      operator: { name: 'Reception' },
      items: amounts.map((amount, index) => ({
        type: 'position',
        name: `Night ${index + 1}`,
        price: amount,
        quantity: 1,
        amount,
        tax: { type: 'vat20' },
      })),
      payments: [{ type: 'electronically', sum: paid }],
    },
  };
}

describe('connecting', () => {
  it('says hello with its version and capabilities, then is online with the welcome and sends heartbeats', async () => {
    const { agent, connection } = await onlineAgent({ machineName: 'DESK-7', heartbeatSeconds: 0.02 });

    expect(connection.hello).toEqual({
      type: 'hello',
      protocol: 1,
      agent_version: '1.4.2',
      machine_name: 'DESK-7',
      capabilities: expect.arrayContaining(['write_card', 'fiscal_receipt', 'update', 'ping']),
    });
    expect(agent.state).toBe('online');
    expect(agent.welcome).toEqual(expect.objectContaining({ type: 'welcome', hotel_slug: 'test-hotel' }));
    await sleep(QUIET_MS);
    expect(connection.heartbeats).toBeGreaterThan(1);

    agent.setHeartbeats(false);
    const heartbeats = connection.heartbeats;
    await sleep(QUIET_MS);
    expect(connection.heartbeats).toBeLessThanOrEqual(heartbeats + 1);
  });

  it('reconnects after a close other than 4003, with a new hello', async () => {
    const { agent, connection } = await onlineAgent();
    connection.close(4408, 'silent too long');

    const again = await server.nextConnection();
    await agent.waitForWelcome();
    expect(again.hello?.protocol).toBe(1);
    expect(agent.lastClose).toEqual({ code: 4408, reason: 'silent too long' });
    expect(agent.state).toBe('online');
  });

  it('retries a handshake refused with 503 after delays doubling from the minimum', async () => {
    server.refusals.push(503, 503, 503);
    const agent = startAgent({ reconnect: { minMs: 20, maxMs: 1000 } });

    await server.nextConnection();
    await agent.waitForWelcome();
    const gaps = server.handshakeTimes.slice(1).map((time, index) => time - server.handshakeTimes[index]);
    expect(gaps).toHaveLength(3);
    gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(20 * 2 ** index - 2));
    expect(agent.lastClose).toEqual({ code: 1006, reason: 'handshake refused with 503' });
  });

  it('stops for good after 4003 (revoked)', async () => {
    const { agent, connection } = await onlineAgent();
    connection.close(4003, 'revoked');
    await connection.closed;

    await expect(agent.nextWelcome(QUIET_MS)).rejects.toThrow(/revoked/);
    expect(agent.state).toBe('revoked');
    expect(agent.lastClose).toEqual({ code: 4003, reason: 'revoked' });
    expect(server.connections).toHaveLength(1);
  });

  it('stops when the handshake refuses its credential with 401', async () => {
    const agent = startAgent({ credential: 'not-the-credential' });

    await expect(agent.waitForWelcome(2000)).rejects.toThrow(/401/);
    expect(agent.state).toBe('revoked');
    expect(server.connections).toHaveLength(0);
  });

  it('goes offline without reconnecting and comes back online on demand', async () => {
    const { agent, connection } = await onlineAgent();

    await agent.goOffline();
    await connection.closed;
    expect(agent.state).toBe('offline');
    await sleep(QUIET_MS);
    expect(server.connections).toHaveLength(1);

    agent.goOnline();
    await server.nextConnection();
    await agent.waitForWelcome();
    expect(agent.state).toBe('online');
  });
});

describe('commands at most once per id', () => {
  it('answers a repeated id with the stored reply without executing it again', async () => {
    const { agent, connection } = await onlineAgent();
    const id = randomUUID();

    const first = await connection.command('write_card', card, { id });
    const again = await connection.command('write_card', card, { id });

    expect(again).toEqual(first);
    expect(agent.executed.filter((command) => command.id === id)).toHaveLength(1);
    expect(agent.cards).toHaveLength(1);
    expect(agent.redeliveries).toBe(1);
  });

  it('loses a reply on demand and sends the stored one when the command comes again after a reconnection', async () => {
    const { agent, connection } = await onlineAgent();
    const id = randomUUID();
    agent.dropNextReply('write_card');

    await expect(connection.command('write_card', card, { id, timeoutMs: QUIET_MS })).rejects.toThrow(/no reply/);
    expect(agent.cards).toHaveLength(1);
    connection.close(1001, 'going away');
    const again = await server.nextConnection();

    const reply = await again.command('write_card', card, { id });
    expect(result(reply)).toEqual({ card_number: agent.cards[0].card_number });
    expect(agent.cards).toHaveLength(1);
    expect(agent.redeliveries).toBe(1);
  });

  it('does not run a command twice when its repeat arrives while it is still executing', async () => {
    const { agent, connection } = await onlineAgent();
    agent.setSlow(QUIET_MS);
    const id = randomUUID();

    const replies = await Promise.all([
      connection.command('write_card', card, { id }),
      connection.command('write_card', card, { id }),
    ]);
    expect(replies[1]).toEqual(replies[0]);
    expect(connection.replies.filter((reply) => reply.id === id)).toHaveLength(2);
    expect(agent.cards).toHaveLength(1);
    expect(agent.redeliveries).toBe(1);
  });

  it('keeps its replies across agent processes in the state file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'reference-agent-'));
    try {
      const stateFile = join(directory, 'state.json');
      const { agent: first, connection } = await onlineAgent({ stateFile });
      const id = randomUUID();
      const reply = await connection.command('write_card', card, { id });
      await first.stop();

      const { agent: restarted, connection: again } = await onlineAgent({ stateFile });
      expect(await again.command('write_card', card, { id })).toEqual(reply);
      expect(restarted.executed).toHaveLength(0);
      expect(result(await again.command('write_card', card))).not.toEqual(result(reply));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('refuses a command that expired before it arrived', async () => {
    const { agent, connection } = await onlineAgent();
    const reply = await connection.command('write_card', card, {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });

    expect(errorCode(reply)).toBe('timeout');
    expect(agent.cards).toHaveLength(0);
  });
});

describe('update', () => {
  it('accepts, reconnects announcing the new version, and does not update twice for a repeated id', async () => {
    const { agent, connection } = await onlineAgent();
    const id = randomUUID();
    const update = { version: '1.5.0', url: 'https://example.test/agent-1.5.0.msi', sha256: 'ab'.repeat(32) };

    expect(result(await connection.command('update', update, { id }))).toEqual({ accepted: true });
    const updated = await server.nextConnection();
    expect(updated.hello?.agent_version).toBe('1.5.0');
    expect(agent.agentVersion).toBe('1.5.0');

    expect(result(await updated.command('update', update, { id }))).toEqual({ accepted: true });
    await sleep(QUIET_MS);
    expect(server.connections).toHaveLength(2);
  });
});

describe('switches', () => {
  it('answers slowly when slow', async () => {
    const { agent, connection } = await onlineAgent();
    agent.setSlow(QUIET_MS);
    const startedAt = Date.now();

    await connection.command('list_ports');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(QUIET_MS - 5);
  });

  it('fails the chosen command type with the chosen code until cleared', async () => {
    const { agent, connection } = await onlineAgent();
    agent.setFailing('ping', 'device_busy');

    expect(errorCode(await connection.command('ping', { host: '10.0.0.5' }))).toBe('device_busy');
    expect(errorCode(await connection.command('list_ports'))).toBeUndefined();
    agent.setFailing(undefined);
    expect(errorCode(await connection.command('ping', { host: '10.0.0.5' }))).toBeUndefined();
  });
});

describe('desk devices', () => {
  it('pings, times out on unreachable hosts, lists ports and printers, tests devices', async () => {
    const { agent, connection } = await onlineAgent({ unreachableHosts: ['10.0.0.99'] });

    expect(result(await connection.command('ping', { host: '10.0.0.5' }))).toEqual({
      host: '10.0.0.5',
      sent: 4,
      received: 4,
      replies: [1, 2, 3, 4].map((seq) => ({ seq, time_ms: expect.any(Number) })),
    });
    expect(result(await connection.command('ping', { host: '10.0.0.99' }))).toEqual(
      expect.objectContaining({ received: 0, replies: [1, 2, 3, 4].map((seq) => ({ seq, error: 'timeout' })) }),
    );
    agent.setUnreachable('10.0.0.99', false);
    expect(result(await connection.command('ping', { host: '10.0.0.99' }))).toEqual(
      expect.objectContaining({ received: 4 }),
    );
    expect(result(await connection.command('list_ports'))).toEqual({
      ports: [expect.objectContaining({ name: 'COM1' }), expect.objectContaining({ name: 'COM3' })],
    });
    expect(result(await connection.command('list_printers'))).toEqual({
      printers: expect.arrayContaining([expect.objectContaining({ is_default: true })]),
    });

    const printer = { id: 'd1', type: 'printer', connection: 'com', com_port: 'COM1', fiscal_mode: null, config: {} };
    expect(result(await connection.command('test_device', { device: printer }))).toEqual(
      expect.objectContaining({ message: expect.any(String) }),
    );
    const missing = { ...printer, com_port: 'COM9' };
    expect(errorCode(await connection.command('test_device', { device: missing }))).toBe('device_not_found');
    expect(errorCode(await connection.command('format_disk'))).toBe('unsupported_command');
  });

  it('performs http_request for real', async () => {
    const answer = ({ method, body }: HttpExchange) => ({
      status: 202,
      headers: { 'x-tv': 'yes' },
      body: `${method} ${body}`,
    });
    await withHttpServer(answer, async (baseUrl) => {
      const { connection } = await onlineAgent();
      const push = { method: 'POST', url: `${baseUrl}/push`, headers: {}, body: 'room=101' };

      expect(result(await connection.command('http_request', push))).toEqual({
        status: 202,
        headers: expect.objectContaining({ 'x-tv': 'yes' }),
        body: 'POST room=101',
      });
      const unreachable = { method: 'GET', url: 'http://127.0.0.1:1/', headers: {} };
      expect(errorCode(await connection.command('http_request', unreachable))).toBe('http_failed');
    });
  });
});

describe('card encoder', () => {
  it('reports the DLL and whether the encoder is on the port', async () => {
    const { connection } = await onlineAgent();

    expect(result(await connection.command('dll_info', { com_port: 'COM3' }))).toEqual({
      dll_version: 'CardEncoder 1.6.1',
      encoder_connected: true,
    });
    expect(result(await connection.command('dll_info', { com_port: 'COM1' }))).toEqual(
      expect.objectContaining({ encoder_connected: false }),
    );
    expect(errorCode(await connection.command('dll_info', { com_port: 'COM8' }))).toBe('encoder_not_found');
  });

  it.each([
    ['a sector below 1', { sectors: [0, 1] }],
    ['a sector above 16', { sectors: [17] }],
    ['a fractional sector', { sectors: [1.5] }],
    ['no sectors', { sectors: [] }],
    ['no lock', { lock_macs: [] }],
    ['valid_until before valid_from', { valid_until: '2026-11-24T13:00:00Z' }],
    ['valid_until equal to valid_from', { valid_until: card.valid_from }],
    ['no floor', { floor_no: undefined }],
  ])('refuses to write a card with %s', async (_, change) => {
    const { agent, connection } = await onlineAgent();

    expect(errorCode(await connection.command('write_card', { ...card, ...change }))).toBe('invalid_payload');
    expect(agent.cards).toHaveLength(0);
  });

  it('writes a card only with a card on the encoder of that port, and cancels it', async () => {
    const { agent, connection } = await onlineAgent();

    expect(errorCode(await connection.command('write_card', { ...card, com_port: 'COM1' }))).toBe('encoder_not_found');
    agent.setCardPresent(false);
    expect(errorCode(await connection.command('write_card', card))).toBe('no_card');
    agent.setCardPresent(true);

    const written = result(await connection.command('write_card', card)) as { card_number: string };
    expect(written.card_number).toMatch(/^[0-9A-F]{8}$/);
    expect(agent.cards).toEqual([expect.objectContaining({ card_number: written.card_number, payload: card })]);
    const next = result(await connection.command('write_card', card)) as { card_number: string };
    expect(next.card_number).not.toBe(written.card_number);

    const cancel = { com_port: 'COM3', hotel_info: 'hotel-info-blob' };
    expect(result(await connection.command('cancel_card', cancel))).toEqual({ card_number: next.card_number });
    expect(agent.cancelledCards).toEqual([expect.objectContaining({ card_number: next.card_number })]);
    expect(errorCode(await connection.command('cancel_card', cancel))).toBe('no_card');

    agent.placeCard(written.card_number);
    expect(result(await connection.command('cancel_card', cancel))).toEqual({ card_number: written.card_number });
  });
});

describe('fiscal register', () => {
  const fiscalOf = (reply: CommandReply) => (result(reply) as { fiscal: Record<string, unknown> }).fiscal;

  it('opens the shift for a sell when it is closed and numbers receipts within the shift', async () => {
    const { agent, connection } = await onlineAgent();

    const first = fiscalOf(await connection.command('fiscal_receipt', sellTask([2500, 1000.5], 3500.5)));
    expect(first).toEqual({
      fiscal_document_number: 2,
      fiscal_document_sign: expect.stringMatching(/^\d{10}$/),
      fn_number: expect.stringMatching(/^\d{16}$/),
      shift_number: 1,
      receipt_number: 1,
      datetime: expect.any(String),
      total: 3500.5,
    });
    expect(new Date(first.datetime as string).toISOString()).toBe(first.datetime);
    const refund = fiscalOf(await connection.command('fiscal_receipt', sellTask([1000.5], 1000.5, 'sellReturn')));
    expect(refund).toEqual(expect.objectContaining({ shift_number: 1, receipt_number: 2, total: 1000.5 }));
    expect(agent.receipts.map((receipt) => receipt.type)).toEqual(['sell', 'sellReturn']);

    const closeShift = { device: {}, task: { type: 'closeShift' } };
    expect(fiscalOf(await connection.command('fiscal_receipt', closeShift))).toEqual(
      expect.objectContaining({ shift_number: 1, receipt_number: null }),
    );
    expect(agent.fiscalRegister.shift.open).toBe(false);
    expect(errorCode(await connection.command('fiscal_receipt', closeShift))).toBe('fiscal_refused');

    const openShift = { device: {}, task: { type: 'openShift' } };
    expect(fiscalOf(await connection.command('fiscal_receipt', openShift))).toEqual(
      expect.objectContaining({ shift_number: 2 }),
    );
    expect(errorCode(await connection.command('fiscal_receipt', openShift))).toBe('fiscal_refused');
    const second = fiscalOf(await connection.command('fiscal_receipt', sellTask([100], 100)));
    expect(second).toEqual(expect.objectContaining({ shift_number: 2, receipt_number: 1 }));
  });

  it('refuses a receipt whose payments do not add up to its items', async () => {
    const { agent, connection } = await onlineAgent();

    const reply = await connection.command('fiscal_receipt', sellTask([2500, 1000], 3000));
    expect(reply).toEqual(
      expect.objectContaining({ ok: false, error: { code: 'fiscal_refused', message: expect.stringMatching(/3000/) } }),
    );
    expect(agent.receipts).toHaveLength(0);
  });

  it('refuses everything with the register words while refusing, and shift_expired after 24 hours', async () => {
    const { agent, connection } = await onlineAgent();
    agent.setFiscalRefusal('Нет бумаги');

    expect(await connection.command('fiscal_receipt', sellTask([100], 100))).toEqual(
      expect.objectContaining({ ok: false, error: { code: 'fiscal_refused', message: 'Нет бумаги' } }),
    );
    agent.setFiscalRefusal(undefined);
    expect(errorCode(await connection.command('fiscal_receipt', sellTask([100], 100)))).toBeUndefined();

    agent.fiscalRegister.ageShift(25 * 60 * 60 * 1000);
    expect(errorCode(await connection.command('fiscal_receipt', sellTask([100], 100)))).toBe('shift_expired');
  });
});

describe('pairAgent', () => {
  it('exchanges the pair code at POST /api/agents/pair', async () => {
    const requests: HttpExchange[] = [];
    const pairing = { workstation_id: 'w1', hotel_slug: 'h1', credential: 'c1' };
    const answer = (request: HttpExchange) => {
      requests.push(request);
      return { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify(pairing) };
    };
    await withHttpServer(answer, async (baseUrl) => {
      expect(await pairAgent(baseUrl, 'ABCD2345', { agentVersion: '1.4.2', machineName: 'DESK-2' })).toEqual(pairing);
    });

    expect(requests).toHaveLength(1);
    expect(requests[0]).toEqual(expect.objectContaining({ method: 'POST', url: '/api/agents/pair' }));
    expect(JSON.parse(requests[0].body)).toEqual({
      pair_code: 'ABCD2345',
      agent_version: '1.4.2',
      machine_name: 'DESK-2',
    });
  });
});
