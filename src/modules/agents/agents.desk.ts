import type Joi from 'joi';
import type { Db } from '../../platform/db/knex';
import { BadGatewayError, ConflictError, NotFoundError } from '../../platform/errors';
import type { AgentCommands } from './agents.commands';
import type { DeviceOwner } from './agents.devices';
import {
  deviceTestResult,
  dllInfoResult,
  pingResult,
  portsResult,
  printersResult,
  updateAcceptance,
} from './agents.desk-schemas';
import { agentMessages } from './agents.messages';
import { AGENT_PRESENCE_STALE_MS } from './agents.protocol';
import { devicesRepository, workstationsRepository } from './agents.repository';
import type { AgentRelease } from './agents.release';

/** 4 echo requests of up to 2 s each, and the desk's own overhead. */
const PING_TIMEOUT_MS = 15_000;
/** A fiscal register may take this long to answer a status request. */
const DEVICE_TEST_TIMEOUT_MS = 30_000;
/** Desks told to update at once by update-all. */
const UPDATE_FAN_OUT = 8;

export type PingResult = { host: string; sent: number; received: number; replies: object[] };

/**
 * The desk's quick diagnostics and updates: request/response commands answered while the staff request waits. What
 * the agent answers is checked against the protocol before it reaches staff (it is another program's input).
 */
export function createDeskCommands(db: Db, commands: AgentCommands, latestRelease: () => AgentRelease) {
  async function askChecked<T>(
    owner: DeviceOwner,
    type: string,
    payload: Record<string, unknown>,
    schema: Joi.ObjectSchema,
    timeoutMs?: number,
  ): Promise<T> {
    const answer = await commands.ask(owner.hotelId, owner.workstationId, type, payload, timeoutMs);
    const { value, error } = schema.validate(answer, { stripUnknown: true, convert: false });
    if (error) throw new BadGatewayError('agent_bad_answer', agentMessages.agentBadAnswer);
    return value as T;
  }

  function publishedRelease(): AgentRelease & { url: string } {
    const release = latestRelease();
    if (!release.url) throw new ConflictError(agentMessages.noRelease, 'no_agent_release');
    return release as AgentRelease & { url: string };
  }

  async function update(owner: DeviceOwner, release: AgentRelease & { url: string }) {
    const { accepted } = await askChecked<{ accepted: boolean }>(
      owner,
      'update',
      { version: release.version, url: release.url, sha256: release.sha256 },
      updateAcceptance,
    );
    return { workstation_id: owner.workstationId, version: release.version, accepted };
  }

  return {
    ping: (owner: DeviceOwner, host: string) =>
      askChecked<PingResult>(owner, 'ping', { host }, pingResult, PING_TIMEOUT_MS),

    /** The card encoder's DLL on that port of the desk, and whether an encoder answers there. */
    encoderDllInfo: (owner: DeviceOwner, comPort: string) =>
      askChecked<{ dll_version: string; encoder_connected: boolean }>(
        owner,
        'dll_info',
        { com_port: comPort },
        dllInfoResult,
      ),

    listPorts: (owner: DeviceOwner) => askChecked<{ ports: object[] }>(owner, 'list_ports', {}, portsResult),

    printers: (owner: DeviceOwner) => askChecked<{ printers: object[] }>(owner, 'list_printers', {}, printersResult),

    async testDevice(owner: DeviceOwner, deviceId: string) {
      const device = await devicesRepository.find(db, owner.hotelId, owner.workstationId, deviceId);
      if (!device) throw new NotFoundError(agentMessages.deviceNotFound);
      const { hotel_id: _hotel, created_at: _created, updated_at: _updated, ...described } = device;
      return askChecked<object>(owner, 'test_device', { device: described }, deviceTestResult, DEVICE_TEST_TIMEOUT_MS);
    },

    async update(owner: DeviceOwner) {
      if (!(await workstationsRepository.find(db, owner.hotelId, owner.workstationId))) {
        throw new NotFoundError(agentMessages.workstationNotFound);
      }
      return update(owner, publishedRelease());
    },

    /** Every connected desk of the hotel on another version is told to update; each one's answer is reported. */
    async updateAll(hotelId: string) {
      const release = publishedRelease();
      const outdated = await workstationsRepository.onlineOutdated(
        db,
        hotelId,
        release.version,
        AGENT_PRESENCE_STALE_MS,
      );
      const results: { workstation_id: string; accepted: boolean; error: string | null }[] = [];
      for (let start = 0; start < outdated.length; start += UPDATE_FAN_OUT) {
        const batch = outdated.slice(start, start + UPDATE_FAN_OUT);
        const settled = await Promise.allSettled(
          batch.map((workstation) => update({ hotelId, workstationId: workstation.id }, release)),
        );
        settled.forEach((outcome, index) =>
          results.push(
            outcome.status === 'fulfilled'
              ? { workstation_id: outcome.value.workstation_id, accepted: outcome.value.accepted, error: null }
              : {
                  workstation_id: batch[index].id,
                  accepted: false,
                  error: outcome.reason instanceof Error ? outcome.reason.message : agentMessages.agentFailed,
                },
          ),
        );
      }
      return { version: release.version, requested: outdated.length, results };
    },
  };
}
