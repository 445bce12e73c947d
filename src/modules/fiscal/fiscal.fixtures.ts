import type { ModuleFixtures } from '../../platform/fixtures';
import type { FiscalService } from './fiscal.service';

/** A receipt of the seeded payment on the desk's register (no route prints one: the payment flows do, as here). */
export const fiscalFixtures: ModuleFixtures<FiscalService> = {
  needs: ['payment', 'workstation', 'device'],
  records: { fiscalReceipt: { paths: ['/api/hotels/:slug/fiscal-receipts/:id'] } },
  async seed({ db, hotelId, canary, records }, fiscal) {
    const receipt = await db.transaction((trx) =>
      fiscal.prepare(trx, hotelId, {
        source_kind: 'booking_payment',
        source_id: records.payment,
        operation: 'sell',
        workstation_id: records.workstation,
        device_id: records.device,
        receipt: {
          operator: { name: `Cashier ${canary}` },
          taxation: 'osn',
          customer: { email: `${canary}-receipt@example.test` },
          lines: [
            {
              name: `Stay ${canary}`,
              unitPrice: '1000',
              quantity: 1,
              vat: '20',
              method: 'full_payment',
              object: 'service',
            },
          ],
          payments: [{ kind: 'card', amount: '1000' }],
        },
      }),
    );
    return { fiscalReceipt: receipt.id };
  },
};
