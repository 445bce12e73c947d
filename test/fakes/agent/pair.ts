export interface AgentPairing {
  workstation_id: string;
  hotel_slug: string;
  credential: string;
}

/** Exchanges a pair code for the credential, as an agent does at POST /api/agents/pair. */
export async function pairAgent(
  baseUrl: string,
  pairCode: string,
  { agentVersion, machineName }: { agentVersion?: string; machineName?: string } = {},
): Promise<AgentPairing> {
  const response = await fetch(new URL('/api/agents/pair', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair_code: pairCode, agent_version: agentVersion, machine_name: machineName }),
  });
  if (response.status !== 201) {
    throw new Error(`pairing refused with ${response.status}: ${await response.text()}`);
  }
  return (await response.json()) as AgentPairing;
}
