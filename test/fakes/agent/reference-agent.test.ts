import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pairAgent } from './index';
import {
  card,
  errorCode,
  QUIET_MS,
  result,
  useProtocolServer,
  withHttpServer,
  type HttpExchange,
} from './test-support';

const { server, startAgent, onlineAgent } = useProtocolServer();

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

    const again = await server().nextConnection();
    await agent.waitForWelcome();
    expect(again.hello?.protocol).toBe(1);
    expect(agent.lastClose).toEqual({ code: 4408, reason: 'silent too long' });
    expect(agent.state).toBe('online');
  });

  it('retries a handshake refused with 503 after delays doubling from the minimum', async () => {
    server().refusals.push(503, 503, 503);
    const agent = startAgent({ reconnect: { minMs: 20, maxMs: 1000 } });

    await server().nextConnection();
    await agent.waitForWelcome();
    const gaps = server()
      .handshakeTimes.slice(1)
      .map((time, index) => time - server().handshakeTimes[index]);
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
    expect(server().connections).toHaveLength(1);
  });

  it('stops when the handshake refuses its credential with 401', async () => {
    const agent = startAgent({ credential: 'not-the-credential' });

    await expect(agent.waitForWelcome(2000)).rejects.toThrow(/401/);
    expect(agent.state).toBe('revoked');
    expect(server().connections).toHaveLength(0);
  });

  it('goes offline without reconnecting and comes back online on demand', async () => {
    const { agent, connection } = await onlineAgent();

    await agent.goOffline();
    await connection.closed;
    expect(agent.state).toBe('offline');
    await sleep(QUIET_MS);
    expect(server().connections).toHaveLength(1);

    agent.goOnline();
    await server().nextConnection();
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
    const again = await server().nextConnection();

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
    const updated = await server().nextConnection();
    expect(updated.hello?.agent_version).toBe('1.5.0');
    expect(agent.agentVersion).toBe('1.5.0');

    expect(result(await updated.command('update', update, { id }))).toEqual({ accepted: true });
    await sleep(QUIET_MS);
    expect(server().connections).toHaveLength(2);
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
