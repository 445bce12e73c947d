import { startReferenceAgent, type ReferenceAgent, type ReferenceAgentOptions } from './index';
import { ProtocolServer } from './protocol-server';

const CREDENTIAL = 'agent-credential-for-tests';

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

describe('connecting', () => {
  it('says hello with its version and capabilities, then is online with the welcome', async () => {
    const agent = startAgent({ machineName: 'DESK-7' });
    const connection = await server.nextConnection();
    const welcome = await agent.waitForWelcome();

    expect(connection.hello).toEqual({
      type: 'hello',
      protocol: 1,
      agent_version: '1.4.2',
      machine_name: 'DESK-7',
      capabilities: expect.arrayContaining(['write_card', 'fiscal_receipt', 'update', 'ping']),
    });
    expect(agent.state).toBe('online');
    expect(welcome).toEqual(expect.objectContaining({ type: 'welcome', hotel_slug: 'test-hotel' }));
    expect(agent.welcome).toEqual(welcome);
  });
});
