import { russianDate } from '../../platform/dates';
import { formatMoney, parseMoney } from '../../platform/money';
import { renderPdf } from '../../platform/pdf';
import { vatByRate } from './invoices.rules';
import type { InvoiceLine, InvoiceRow } from './invoices.types';

const rub = (amount: string) => {
  const [whole, fraction] = formatMoney(parseMoney(amount)).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')},${fraction}`;
};
const vatLabel = (rate: string) => (rate === 'none' ? 'Без НДС' : `${rate}%`);

/** Columns of the lines' table: header, width, and the cell of a line. */
const COLUMNS: [string, number, (line: InvoiceLine, n: number) => string][] = [
  ['№', 25, (_line, n) => String(n)],
  ['Наименование', 215, (line) => line.description],
  ['Дата', 65, (line) => russianDate(line.business_date)],
  ['НДС', 50, (line) => vatLabel(line.vat_rate)],
  ['В т. ч. НДС', 70, (line) => rub(line.vat_amount)],
  ['Сумма, ₽', 80, (line) => rub(line.amount)],
];

function table(doc: PDFKit.PDFDocument, lines: InvoiceLine[]): void {
  const row = (cells: string[]) => {
    const y = doc.y;
    let x = doc.page.margins.left;
    const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: COLUMNS[i][1] - 4 }));
    if (y + Math.max(...heights) > doc.page.height - doc.page.margins.bottom) doc.addPage();
    const top = doc.y;
    cells.forEach((cell, i) => {
      doc.text(cell, x + 2, top, { width: COLUMNS[i][1] - 4, align: i >= 4 ? 'right' : 'left' });
      x += COLUMNS[i][1];
    });
    doc.x = doc.page.margins.left;
    doc.y = top + Math.max(...heights) + 4;
  };
  doc.font('bold');
  row(COLUMNS.map(([header]) => header));
  doc.font('main');
  lines.forEach((line, i) => row(COLUMNS.map(([, , cell]) => cell(line, i + 1))));
}

/** The invoice as a Russian «счёт на оплату»: seller with bank details, payer, lines with VAT, totals. */
export function renderInvoicePdf(invoice: InvoiceRow, lines: InvoiceLine[]): Promise<Buffer> {
  return renderPdf({ title: `Счёт № ${invoice.number}`, margin: 40 }, (doc) => {
    const { seller, payer } = invoice;
    doc.fontSize(9);
    doc.text(`Банк получателя: ${seller.bank_name}`);
    doc.text(`БИК ${seller.bik}   Корр. счёт ${seller.correspondent_account}`);
    doc.text(`Получатель: ${seller.legal_name}   ИНН ${seller.inn}${seller.kpp ? `   КПП ${seller.kpp}` : ''}`);
    doc.text(`Расчётный счёт ${seller.settlement_account}`);
    doc.moveDown();
    doc
      .font('bold')
      .fontSize(14)
      .text(`Счёт на оплату № ${invoice.number} от ${russianDate(invoice.issued_on)}`);
    // Cancelled by a credit note: rendered at each download with the mark, never kept.
    if (invoice.status === 'cancelled') doc.fillColor('red').text('АННУЛИРОВАН').fillColor('black');
    doc.moveDown(0.5).font('main').fontSize(9);
    doc.text(
      `Поставщик: ${seller.legal_name}, ИНН ${seller.inn}${seller.kpp ? `, КПП ${seller.kpp}` : ''}, ${seller.legal_address}`,
    );
    doc.text(`Покупатель: ${payer.name}${payer.inn ? `, ИНН ${payer.inn}` : ''}`);
    doc.moveDown();
    table(doc, lines);
    doc.moveDown().font('bold');
    doc.text(`Итого: ${rub(invoice.total)} ₽`, { align: 'right' });
    doc.font('main');
    for (const vat of vatByRate(lines))
      doc.text(
        vat.vat_rate === 'none'
          ? `Без НДС: ${rub(vat.amount)} ₽`
          : `В т. ч. НДС ${vat.vat_rate}%: ${rub(vat.vat_amount)} ₽`,
        { align: 'right' },
      );
    doc.moveDown().text(`Всего наименований ${lines.length}, на сумму ${rub(invoice.total)} ₽`);
  });
}
