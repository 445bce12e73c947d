import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { Format, ReportTable } from './reports.types';

/** Money columns are strings in JSON (exact); in a spreadsheet they become numbers so sums work. */
const MONEY = /^-?\d+\.\d{2}$/;
const cell = (value: string | number | null) =>
  typeof value === 'string' && MONEY.test(value) ? Number(value) : value;

function workbookOf(tables: readonly ReportTable[], numbers: boolean): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.name.slice(0, 31));
    sheet.columns = table.columns.map(({ key, header }) => ({ key, header, width: Math.max(12, header.length + 2) }));
    sheet.getRow(1).font = { bold: true };
    for (const row of table.rows)
      sheet.addRow(Object.fromEntries(table.columns.map(({ key }) => [key, numbers ? cell(row[key]) : row[key]])));
  }
  return workbook;
}

/** The first table as CSV (its money as written, exact) (`;`-separated, as Russian spreadsheets read it, with a BOM for Excel). */
export async function csvOf(table: ReportTable): Promise<Buffer> {
  const body = await workbookOf([table], false).csv.writeBuffer({
    formatterOptions: { delimiter: ';', writeBOM: true },
  });
  return Buffer.from(body);
}

export async function xlsxOf(tables: readonly ReportTable[]): Promise<Buffer> {
  return Buffer.from(await workbookOf(tables, true).xlsx.writeBuffer());
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The files a report comes as besides its JSON. */
export const REPORT_MEDIA = ['text/csv', XLSX_TYPE];

/** Answers a report in the format asked: its JSON, its first table as CSV, or every table as a workbook. */
export async function sendReport(
  res: Response,
  format: Format,
  filename: string,
  report: { json: unknown; tables: readonly ReportTable[] },
): Promise<void> {
  if (format === 'json') {
    res.json(report.json);
    return;
  }
  res.set('Content-Disposition', `attachment; filename="${filename}.${format}"`);
  if (format === 'csv') res.type('text/csv; charset=utf-8').send(await csvOf(report.tables[0]));
  else res.type(XLSX_TYPE).send(await xlsxOf(report.tables));
}
