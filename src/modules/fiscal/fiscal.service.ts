import type { Knex } from 'knex';
import {
  AtolTaskError,
  parseFiscalResult,
  sellReturnTask,
  sellTask,
  type AtolReceiptTask,
  type FiscalAttributes,
} from '../../integrations/atol';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { enqueueOutbox } from '../../platform/db/outbox';
import { fiscalWorkflowIds, type FiscalReceiptWorkflow } from '../../../workflows/contracts/fiscal';
import { BusinessRuleError, NotFoundError, ValidationError } from '../../platform/errors';
import type { AgentsService, WorkstationDevice } from '../agents';
import { failureText, fiscalMessages } from './fiscal.messages';
import { receiptsRepository } from './fiscal.repository';
import type { FiscalReceipt, FiscalReceiptFilter, PrepareReceipt, ReceiptFailure } from './fiscal.types';

export interface FiscalDependencies {
  agents: Pick<AgentsService, 'devices' | 'commands'>;
}

/** A receipt may wait this long for a desk that is offline; then it is reported not printed. */
export const FISCAL_RECEIPT_DEADLINE_MS = 24 * 60 * 60_000;

/** What the desk's agent is sent to print a receipt (the `fiscal_receipt` command of protocol 1). */
export interface FiscalReceiptCommand {
  receipt: FiscalReceipt;
  device: Pick<WorkstationDevice, 'id' | 'type' | 'connection' | 'com_port' | 'fiscal_mode' | 'dto_port' | 'config'>;
}

function taskOf({ operation, receipt }: PrepareReceipt): AtolReceiptTask {
  try {
    return operation === 'sellReturn' ? sellReturnTask(receipt) : sellTask(receipt);
  } catch (error) {
    if (!(error instanceof AtolTaskError)) throw error;
    throw new BusinessRuleError(
      `${fiscalMessages.receiptInvalid}: ${error.message}`,
      [error.message],
      'fiscal_receipt_invalid',
    );
  }
}

/** A failure code as stored: the agent's own codes are free text, kept short and plain. */
const codeOf = (code: string) => code.replace(/[^a-z0-9_]/gi, '_').slice(0, 64) || 'unknown';

export function createFiscalService(db: Db, deps: FiscalDependencies) {
  async function registerOf(hotelId: string, workstationId: string, deviceId: string): Promise<WorkstationDevice> {
    const device = await deps.agents.devices.get({ hotelId, workstationId }, deviceId);
    if (device.type !== 'fiscal_register') throw new BusinessRuleError(fiscalMessages.deviceNotRegister);
    return device;
  }

  async function byId(hotelId: string, id: string): Promise<FiscalReceipt> {
    const receipt = await receiptsRepository.find(db, hotelId, id);
    if (!receipt) throw new NotFoundError(fiscalMessages.receiptNotFound);
    return receipt;
  }

  async function markFailed(hotelId: string, receiptId: string, failure: ReceiptFailure): Promise<FiscalReceipt> {
    const settled = await receiptsRepository.settle(db, hotelId, receiptId, ['pending', 'failed'], {
      status: 'failed',
      error_code: codeOf(failure.code),
      error_message: failureText(failure.code, failure.message),
    });
    // A printed receipt stays printed: the register's answer is the truth, whatever a late failure says.
    return settled ?? byId(hotelId, receiptId);
  }

  return {
    /**
     * Records the receipt to print for a source (pending, with its ATOL task) inside the caller's transaction, once:
     * called again for the same source and operation it returns the receipt recorded first, unchanged. Refuses (422) a
     * receipt the register would refuse and a device that is not a fiscal register; 404 for an unknown device.
     */
    async prepare(trx: Knex.Transaction, hotelId: string, input: PrepareReceipt): Promise<FiscalReceipt> {
      const task = taskOf(input);
      const existing = await receiptsRepository.bySource(trx, hotelId, input);
      if (existing) return existing;
      await registerOf(hotelId, input.workstation_id, input.device_id);
      const { receipt: _described, ...source } = input;
      return receiptsRepository.insertOnce(trx, hotelId, { ...source, total: task.total.toFixed(2), task });
    },

    /**
     * The register printed the receipt: its fiscal attributes (the agent's answer, validated) are stored. Attributes
     * that are incomplete leave the receipt failed with that said, never printed with half of them.
     */
    async markPrinted(hotelId: string, receiptId: string, answer: unknown): Promise<FiscalReceipt> {
      let fiscal: FiscalAttributes;
      try {
        fiscal = parseFiscalResult(answer);
      } catch (error) {
        if (!(error instanceof AtolTaskError)) throw error;
        return markFailed(hotelId, receiptId, { code: 'invalid_answer', message: error.message });
      }
      const settled = await receiptsRepository.settle(db, hotelId, receiptId, ['pending', 'failed'], {
        status: 'printed',
        fiscal,
        error_code: null,
        error_message: null,
      });
      return settled ?? byId(hotelId, receiptId);
    },

    /** The register of the desk where money is taken: 422 `no_fiscal_register` when it has none (404 unknown desk). */
    async registerAt(hotelId: string, workstationId: string): Promise<WorkstationDevice> {
      const register = await deps.agents.devices.fiscalRegisterOf({ hotelId, workstationId });
      if (!register) throw new BusinessRuleError(fiscalMessages.noRegister, [], 'no_fiscal_register');
      return register;
    },

    /**
     * Records the receipt (as `prepare`) and, while it is pending, starts its workflow (`fiscalReceipt:<id>`), both in
     * the caller's transaction: the money and its receipt are committed together or not at all.
     */
    async issue(trx: Knex.Transaction, hotel: { id: string; slug: string }, input: PrepareReceipt, bookingId?: string) {
      const receipt = await this.prepare(trx, hotel.id, input);
      if (receipt.status === 'pending') {
        const args: Parameters<FiscalReceiptWorkflow> = [
          { hotelId: hotel.id, receiptId: receipt.id, deadlineMs: FISCAL_RECEIPT_DEADLINE_MS },
        ];
        await enqueueOutbox(trx, {
          kind: 'startWorkflow',
          workflowType: 'fiscalReceipt',
          workflowId: fiscalWorkflowIds.fiscalReceipt(receipt.id),
          args,
          searchAttributes: { HotelSlug: hotel.slug, ...(bookingId && { BookingId: bookingId }) },
          memo: { hotel: hotel.slug, receipt: receipt.id },
        });
      }
      return receipt;
    },

    markFailed,
    byId,

    forSource: (hotelId: string, kind: FiscalReceipt['source_kind'], sourceId: string) =>
      receiptsRepository.forSource(db, hotelId, kind, sourceId),

    /** The latest `limit` receipts of these sources, newest first (a booking's timeline). */
    ofSources: async (hotelId: string, sourceIds: string[], limit: number) =>
      sourceIds.length ? receiptsRepository.ofSources(db, hotelId, sourceIds, limit) : [],

    async list(hotelId: string, query: FiscalReceiptFilter & PageRequest) {
      const { limit, cursor, ...filter } = query;
      if (filter.from && filter.to && filter.to < filter.from) {
        throw new ValidationError(fiscalMessages.periodReversed, [
          { path: 'query.to', message: fiscalMessages.periodReversed },
        ]);
      }
      return receiptsRepository.list(db, hotelId, filter, { limit, cursor });
    },

    /** The receipt with the register it is printed on, for the agent command. */
    async command(hotelId: string, receiptId: string): Promise<FiscalReceiptCommand> {
      const receipt = await byId(hotelId, receiptId);
      const { id, type, connection, com_port, fiscal_mode, dto_port, config } = await registerOf(
        hotelId,
        receipt.workstation_id,
        receipt.device_id,
      );
      return { receipt, device: { id, type, connection, com_port, fiscal_mode, dto_port, config } };
    },
  };
}

export type FiscalService = ReturnType<typeof createFiscalService>;
