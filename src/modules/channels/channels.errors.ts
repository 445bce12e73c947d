import { BadGatewayError, BusinessRuleError, ServiceUnavailableError } from '../../platform/errors';
import { ChannelError } from './channels.manager';

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
  reconciliationTitle: 'У менеджера каналов были не наши цены или наличие: наши будут отправлены снова',
};

/** Seconds a caller waits before asking again when the channel did not answer. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Whose key a call went out under: one the caller gave in this request (a connection made or changed), or the stored
 * connection's (intake: a refused key is then the channel refusing, not the caller's input).
 */
export type ChannelKeyOf = 'request' | 'connection';

/**
 * A channel's failure in this API's terms, the one mapping of `ChannelError`: a wrong key or an unknown property is
 * the caller's to fix (422) when the caller gave them, else the channel's refusal (502 `channel_refused`, as any other
 * refusal); an answer that cannot be read is 502 `channel_answer`; no answer, a 429 or a 5xx may pass (503 with
 * Retry-After: the channel's, else 30 s; retried by the sync and intake). The `ChannelError` stays its `cause`, so the
 * log of a 5xx names the call that failed (its method and path) and how.
 */
export function channelFailure(error: ChannelError, keyOf: ChannelKeyOf = 'request') {
  const failure = inApiTerms(error, keyOf);
  failure.cause = error;
  return failure;
}

function inApiTerms(error: ChannelError, keyOf: ChannelKeyOf) {
  switch (
    keyOf === 'connection' && (error.kind === 'unauthorized' || error.kind === 'not_found') ? 'refused' : error.kind
  ) {
    case 'unauthorized':
      return new BusinessRuleError(channelMessages.unauthorized, [], 'channel_unauthorized');
    case 'not_found':
      return new BusinessRuleError(channelMessages.unknownProperty, [], 'channel_property_unknown');
    case 'refused':
      return new BadGatewayError('channel_refused', `${channelMessages.refused}: ${error.message}`);
    case 'unreadable':
      return new BadGatewayError('channel_answer', error.message);
    default:
      return new ServiceUnavailableError(
        'channel_unavailable',
        channelMessages.unavailable,
        error.retryAfterSeconds ?? RETRY_AFTER_SECONDS,
      );
  }
}

/** Runs a call to the channel, its failure translated. */
export async function fromChannel<T>(call: () => Promise<T>, keyOf?: ChannelKeyOf): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof ChannelError ? channelFailure(error, keyOf) : error;
  }
}
