import { BadGatewayError, BusinessRuleError, ServiceUnavailableError } from '../../platform/errors';
import { ChannelError } from './channels.manager';
import type { Reconciliation } from './channels.types';

export const channelMessages = {
  notConnected: 'Отель не подключён к менеджеру каналов',
  connected: 'Отель уже подключён к менеджеру каналов: измените подключение или отключите его',
  propertyTaken:
    'Этот объект менеджера каналов уже подключён к другому отелю: отключите его там или укажите другой property_id',
  unauthorized: 'Менеджер каналов не принял API-ключ',
  unknownProperty: 'Менеджер каналов не знает такого объекта (property_id)',
  unavailable: 'Менеджер каналов не отвечает, повторите позже',
  refused: 'Менеджер каналов отклонил запрос',
  syncRefusedTitle: 'Менеджер каналов не принял обновление цен и наличия',
  reconciliationTitle: 'У менеджера каналов были не наши цены или наличие: отправлены снова',
};

/** The staff's notice of a reconciliation that found differences: how many, and the first ones. */
export function reconciliationSummary(record: Pick<Reconciliation, 'differences' | 'samples'>): string {
  const lines = record.samples.map(
    (item) =>
      `${item.date} ${item.item_id}: отправлено ${JSON.stringify(item.sent)}, у канала ${JSON.stringify(item.held)}`,
  );
  return [`Расхождений (день × тип номера или тариф): ${record.differences}.`, ...lines].join('\n').slice(0, 2000);
}

/** Seconds a caller waits before asking again when the channel did not answer. */
const RETRY_AFTER_SECONDS = 30;

/**
 * A channel's failure in this API's terms: a wrong key or an unknown property is the caller's to fix (422); no answer,
 * a 429 or a 5xx may pass (503 with Retry-After, retried by the sync); another refusal is the channel's (502).
 */
export function channelFailure(error: ChannelError) {
  switch (error.kind) {
    case 'unauthorized':
      return new BusinessRuleError(channelMessages.unauthorized, [], 'channel_unauthorized');
    case 'not_found':
      return new BusinessRuleError(channelMessages.unknownProperty, [], 'channel_property_unknown');
    case 'refused':
      return new BadGatewayError('channel_refused', `${channelMessages.refused}: ${error.message}`);
    default:
      return new ServiceUnavailableError(
        'channel_unavailable',
        channelMessages.unavailable,
        error.retryAfterSeconds ?? RETRY_AFTER_SECONDS,
      );
  }
}

/** Runs a call to the channel, its failure translated. */
export async function fromChannel<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ChannelError ? channelFailure(error) : error;
  }
}
