import type { ErasurePlace } from '../../platform/personal-data';
import { invoicesRepository } from './invoices.repository';

/**
 * The PDFs rendered with the payer's name: forgotten in the erasure's transaction (rendered again, from the payer as it
 * is now, at their next download) and removed from the object store after it commits.
 */
export const invoicePdfs: ErasurePlace = {
  place: 'object store (invoice PDFs)',
  table: 'invoices',
  async erase(trx, target) {
    const pdfs = await invoicesRepository.renderedPdfs(trx, target.hotelId, target.bookingIds);
    await invoicesRepository.forgetPdfs(
      trx,
      target.hotelId,
      pdfs.map((pdf) => pdf.id),
    );
    return { rows: pdfs.length, objects: pdfs.map((pdf) => pdf.pdf_key) };
  },
};
