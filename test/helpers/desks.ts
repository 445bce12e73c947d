import { pairAgent, startReferenceAgent, type ReferenceAgent, type ReferenceAgentOptions } from '../fakes/agent';
import { as, type RegisteredHotel } from './accounts';
import type { TestServer } from './realtime';

export interface Desk {
  id: string;
  agent: ReferenceAgent;
}

/**
 * A workstation of the hotel (`workstation` its body, `devices` attached to it), paired with the reference agent over
 * the test server's channel and online (welcomed). Stop the agents a test starts (`desk.agent.stop()`).
 */
export async function deskWithAgent(
  t: TestServer,
  hotel: RegisteredHotel,
  {
    workstation = { name: 'Ресепшн' },
    devices = [],
    agent = {},
  }: {
    workstation?: Record<string, unknown>;
    devices?: Record<string, unknown>[];
    agent?: Partial<ReferenceAgentOptions>;
  } = {},
): Promise<Desk> {
  const workstations = `/api/hotels/${hotel.slug}/workstations`;
  const created = await t.http.post(workstations).set(as(hotel.accessToken)).send(workstation).expect(201);
  const id = created.body.id as string;
  for (const device of devices) {
    await t.http.post(`${workstations}/${id}/devices`).set(as(hotel.accessToken)).send(device).expect(201);
  }
  return { id, agent: await connectAgent(t, hotel, id, agent) };
}

/** Pairs the reference agent with the hotel's workstation `id` (a new pair code) and waits until it is online. */
export async function connectAgent(
  t: TestServer,
  hotel: RegisteredHotel,
  id: string,
  agent: Partial<ReferenceAgentOptions> = {},
): Promise<ReferenceAgent> {
  const code = await t.http
    .post(`/api/hotels/${hotel.slug}/workstations/${id}/pair-code`)
    .set(as(hotel.accessToken))
    .expect(201);
  const pairing = await pairAgent(t.baseUrl, code.body.pair_code);
  const started = startReferenceAgent({
    url: t.agentsUrl,
    credential: pairing.credential,
    reconnect: { minMs: 50, maxMs: 200 },
    ...agent,
  });
  await started.waitForWelcome();
  return started;
}
