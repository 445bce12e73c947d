export const DEVICE_TYPES = ['fiscal_register', 'printer', 'tv_integration'] as const;
export const DEVICE_CONNECTIONS = ['usb', 'com', 'network', 'windows'] as const;

export type DeviceType = (typeof DEVICE_TYPES)[number];
export type DeviceConnection = (typeof DEVICE_CONNECTIONS)[number];

export interface WorkstationRow {
  id: string;
  hotel_id: string;
  name: string;
  ttlock_com_port: string | null;
  agent_version: string | null;
  machine_name: string | null;
  online: boolean;
  last_seen_at: Date | null;
  connection_id: string | null;
  credential_hash: string | null;
  credential_issued_at: Date | null;
  pair_code_hash: string | null;
  pair_code_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What staff see of a workstation: whether it is paired, never the hashes of its credential or pair code. */
export type Workstation = Omit<
  WorkstationRow,
  'credential_hash' | 'pair_code_hash' | 'pair_code_expires_at' | 'connection_id'
> & {
  paired: boolean;
};

export type WorkstationInput = Partial<Pick<WorkstationRow, 'name' | 'ttlock_com_port'>>;

export interface WorkstationDevice {
  id: string;
  hotel_id: string;
  workstation_id: string;
  name: string;
  type: DeviceType;
  connection: DeviceConnection;
  com_port: string | null;
  fiscal_mode: string | null;
  dto_port: number | null;
  config: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export type DeviceInput = Partial<
  Omit<WorkstationDevice, 'id' | 'hotel_id' | 'workstation_id' | 'created_at' | 'updated_at'>
>;

export interface PairRequest {
  pair_code: string;
  agent_version?: string;
  machine_name?: string;
}

/** Who an agent credential belongs to, for the agent channel. */
export interface AgentIdentity {
  workstationId: string;
  hotelId: string;
  hotelSlug: string;
}

export type CommandStatus = 'pending' | 'succeeded' | 'failed' | 'expired';

/** The agent's refusal of a command: a code from the protocol's table (or the agent's own) and its words. */
export interface AgentError {
  code: string;
  message: string;
}

export type CommandOutcome = { ok: true; result: Record<string, unknown> } | { ok: false; error: AgentError };

export interface AgentCommandRow {
  id: string;
  hotel_id: string;
  workstation_id: string;
  key: string | null;
  type: string;
  payload: Record<string, unknown>;
  durable: boolean;
  status: CommandStatus;
  task_token: string | null;
  workflow_id: string | null;
  result: Record<string, unknown> | null;
  error: AgentError | null;
  deliveries: number;
  expires_at: Date;
  created_at: Date;
  delivered_at: Date | null;
  completed_at: Date | null;
}
