import { refusalsAs } from '../../platform/db/base-model';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import { agentMessages } from './agents.messages';
import { devicesRepository, workstationsRepository } from './agents.repository';
import type { DeviceInput, WorkstationDevice } from './agents.types';

/** A device's place: the hotel and the workstation it is attached to. */
export interface DeviceOwner {
  hotelId: string;
  workstationId: string;
}

/**
 * The fiscal registers, printers and TV integrations attached to a workstation. Whether a COM connection names its
 * port is checked by the database, so a change of either field is weighed against the other as stored.
 */
export function createDevices(db: Db) {
  const comPortRequired = () =>
    new ValidationError(agentMessages.comPortRequired, [
      { path: 'body.com_port', message: agentMessages.comPortRequired },
    ]);
  const outOfBounds = () => new ValidationError(agentMessages.outOfBounds);
  const checked = <T>(write: () => Promise<T>) =>
    refusalsAs(
      {
        check: {
          workstation_devices_com_port_check: comPortRequired,
          workstation_devices_values_check: outOfBounds,
          workstation_devices_kind_check: outOfBounds,
        },
        foreignKey: () => new NotFoundError(agentMessages.workstationNotFound),
      },
      write,
    );

  async function assertWorkstation({ hotelId, workstationId }: DeviceOwner): Promise<void> {
    if (!(await workstationsRepository.find(db, hotelId, workstationId))) {
      throw new NotFoundError(agentMessages.workstationNotFound);
    }
  }

  const missingOrStaleDevice = (owner: DeviceOwner, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(
      expected,
      () => devicesRepository.find(db, owner.hotelId, owner.workstationId, id),
      new NotFoundError(agentMessages.deviceNotFound),
    );

  return {
    async list(owner: DeviceOwner, page: PageRequest) {
      await assertWorkstation(owner);
      return devicesRepository.list(db, owner.hotelId, owner.workstationId, page);
    },

    async get(owner: DeviceOwner, id: string): Promise<WorkstationDevice> {
      const device = await devicesRepository.find(db, owner.hotelId, owner.workstationId, id);
      if (!device) throw new NotFoundError(agentMessages.deviceNotFound);
      return device;
    },

    /** The desk's fiscal register (the first by name when it has several); 404 for an unknown desk. */
    async fiscalRegisterOf(owner: DeviceOwner): Promise<WorkstationDevice | undefined> {
      await assertWorkstation(owner);
      return devicesRepository.firstOfType(db, owner.hotelId, owner.workstationId, 'fiscal_register');
    },

    create: (owner: DeviceOwner, input: DeviceInput) =>
      checked(() => devicesRepository.insert(db, owner.hotelId, owner.workstationId, input)),

    async update(owner: DeviceOwner, id: string, input: DeviceInput, expected?: ExpectedVersion) {
      const device = await checked(() =>
        devicesRepository.update(db, owner.hotelId, owner.workstationId, id, input, expected),
      );
      if (!device) throw await missingOrStaleDevice(owner, id, expected);
      return device;
    },

    async remove(owner: DeviceOwner, id: string, expected?: ExpectedVersion): Promise<void> {
      const deleted = await devicesRepository.delete(db, owner.hotelId, owner.workstationId, id, expected);
      if (!deleted) throw await missingOrStaleDevice(owner, id, expected);
    },
  };
}

export type DevicesService = ReturnType<typeof createDevices>;
