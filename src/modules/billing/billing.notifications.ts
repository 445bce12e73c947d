import { BlockList, isIP } from 'node:net';
import type { PaymentsConfig } from '../payments';
import type { Db } from '../../platform/db/knex';
import { ForbiddenError } from '../../platform/errors';
import type { DepositsService } from '../deposits';
import type { HotelsService } from '../hotels';
import { onlinePaymentWorkflows } from './billing.effects';
import { onlinePaymentsRepository } from './billing.repository';
import type { OnlinePayments } from './billing.online';

export interface ProviderNotification {
  event: string;
  object: { id: string; payment_id?: string };
}

export type NotificationHandling = 'deposit' | 'online_payment' | 'unknown';

/** The other records that follow payments at the provider: each wakes its own workflow; false when none follows it. */
export interface ProviderPaymentFollowers {
  deposits: Pick<DepositsService, 'providerPaymentChanged'>;
}

function allowList(sources: string[]): BlockList | undefined {
  if (sources.length === 0) return undefined;
  const list = new BlockList();
  for (const source of sources) {
    const [network, prefix] = source.split('/');
    const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(network, Number(prefix ?? (family === 'ipv6' ? 128 : 32)), family);
  }
  return list;
}

/**
 * YooKassa's notifications. They are signed by nothing, so none is believed: it only wakes the workflow of the
 * payment it names, which re-reads that payment from the provider with the hotel's credentials and acts on what it
 * reads. A forged, repeated or out-of-order notification therefore changes nothing by itself. The notifications of one
 * payment within `YOOKASSA_NOTIFICATION_COALESCE_MS` make one re-read, at the end of that window.
 */
export function createProviderNotifications(
  db: Db,
  config: PaymentsConfig,
  deps: { hotels: Pick<HotelsService, 'find'> } & ProviderPaymentFollowers,
  onlinePayments: Pick<OnlinePayments, 'ttlMs'>,
) {
  const allowed = allowList(config.yookassa.notificationSources);
  const timers = config.paymentTimers;
  const coalesceMs = config.yookassa.notificationCoalesceMs;

  async function slugOf(hotelId: string): Promise<string> {
    return (await deps.hotels.find(hotelId))!.slug;
  }

  return {
    /** Per source address, a minute: a flood is answered 429 (YooKassa sends a notification again until a 200). */
    limit: { quota: config.yookassa.notificationsPerMinute, windowSeconds: 60 },

    async receive(
      notification: ProviderNotification,
      sourceAddress: string | undefined,
    ): Promise<NotificationHandling> {
      const address = sourceAddress?.replace(/^::ffff:/, '') ?? '';
      if (allowed && !(isIP(address) && allowed.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')))
        throw new ForbiddenError('Уведомление принято только с адресов платёжной системы');
      const paymentId = notification.event.startsWith('refund.')
        ? notification.object.payment_id
        : notification.object.id;
      if (!paymentId) return 'unknown';
      if (await deps.deposits.providerPaymentChanged(paymentId)) return 'deposit';
      const payment = await onlinePaymentsRepository.byProviderPayment(db, paymentId);
      if (!payment) return 'unknown';
      const ttl = await onlinePayments.ttlMs(payment.hotel_id);
      const slug = await slugOf(payment.hotel_id);
      await onlinePaymentWorkflows.providerChanged(db, payment, slug, timers, ttl, coalesceMs);
      return 'online_payment';
    },
  };
}

export type ProviderNotifications = ReturnType<typeof createProviderNotifications>;
