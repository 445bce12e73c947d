import type { ModuleFixtures } from '../../platform/fixtures';

/** A workstation paired with an agent, and a fiscal register on it. */
export const agentsFixtures: ModuleFixtures = {
  records: {
    workstation: {
      paths: ['/api/hotels/:slug/workstations/:id'],
      fields: ['workstation_id', 'agent_workstation_id'],
    },
    device: { paths: ['/api/hotels/:slug/workstations/:id/devices/:deviceId'], fields: ['device_id'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/workstations/:id/ping': { base: () => ({ host: '192.0.2.10' }) },
      // Desk commands: the calling hotel's desk has the reference agent connected (the cross-hotel gate connects it).
      'POST /api/hotels/:slug/workstations/:id/test-device': { base: (r) => ({ device_id: r.device }), control: true },
    },
  },
  async seed({ request, canary }) {
    const workstation = await request<{ id: string }>('/workstations', {
      body: { name: `Desk ${canary}`, ttlock_com_port: 'COM3' },
    });
    const { pair_code } = await request<{ pair_code: string }>(`/workstations/${workstation.id}/pair-code`, {
      body: {},
    });
    await request('/api/agents/pair', {
      anonymous: true,
      body: { pair_code, agent_version: `1.0-${canary}`, machine_name: `PC ${canary}` },
    });
    const device = await request<{ id: string }>(`/workstations/${workstation.id}/devices`, {
      body: {
        name: `Register ${canary}`,
        type: 'fiscal_register',
        connection: 'com',
        com_port: 'COM4',
        fiscal_mode: canary,
        dto_port: 5555,
        config: { dto_device_id: canary },
      },
    });
    return { workstation: workstation.id, device: device.id };
  },
};
