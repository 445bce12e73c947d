import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReferenceAgent, type CommandReply, type ReferenceAgent, type ReferenceAgentOptions } from './index';
import { ProtocolServer } from './protocol-server';

const CREDENTIAL = 'agent-credential-for-tests';
/** Long enough for a reply or a reconnection that is not coming to have come, on a loaded machine too. */
export const QUIET_MS = 150;

/** A fresh protocol server for each test of the file, and every agent a test starts stopped after it. */
export function useProtocolServer() {
  let server: ProtocolServer | undefined;
  const agents: ReferenceAgent[] = [];

  beforeEach(async () => {
    server = await ProtocolServer.start(CREDENTIAL);
  });

  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.stop()));
    await server?.close();
  });

  const current = (): ProtocolServer => {
    if (!server) throw new Error('the protocol server starts in beforeEach');
    return server;
  };

  const startAgent = (options: Partial<ReferenceAgentOptions> = {}): ReferenceAgent => {
    const agent = startReferenceAgent({
      url: current().url,
      credential: CREDENTIAL,
      reconnect: { minMs: 20, maxMs: 200 },
      ...options,
    });
    agents.push(agent);
    return agent;
  };

  const onlineAgent = async (options: Partial<ReferenceAgentOptions> = {}) => {
    const agent = startAgent(options);
    const connection = await current().nextConnection();
    await agent.waitForWelcome();
    return { agent, connection };
  };

  return { server: current, startAgent, onlineAgent };
}

export function result(reply: CommandReply): unknown {
  if (!reply.ok) throw new Error(`expected a success, got ${JSON.stringify(reply.error)}`);
  return reply.result;
}

export function errorCode(reply: CommandReply): string | undefined {
  return reply.ok ? undefined : reply.error.code;
}

export interface HttpExchange {
  method: string;
  url: string;
  body: string;
}

/** Runs `use` against a one-off HTTP server answering every request with `answer`'s status, headers and body. */
export async function withHttpServer(
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

export const card = {
  com_port: 'COM3',
  hotel_info: 'hotel-info-blob',
  build_no: 1,
  floor_no: 2,
  lock_macs: ['AA:BB:CC:DD:EE:01'],
  sectors: [1, 2, 16],
  valid_from: '2026-11-24T14:00:00Z',
  valid_until: '2026-11-26T12:00:00Z',
};
