import type { Response } from 'express';
import type { Workbook } from 'exceljs';
import { loadPackage } from '../../platform/lazy-package';
import type { ColumnType, Format, ReportTable } from './reports.types';

type Cell = string | number | null;

/** A text a spreadsheet would read as a formula (=, +, -, @, tab, carriage return first) gets a `'` before it. */
const FORMULA_START = /^[=+\-@\t\r]/;
const inertText = (value: Cell): Cell => (typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value);

/** A CSV cell: text made inert; money, numbers and dates as written (money exact). */
const csvCell = (value: Cell, type: ColumnType): Cell => (type === 'text' ? inertText(value) : value);

/** An XLSX cell typed by its column: money and counts as numbers, dates as dates (UTC midnight), text as text (a
 * workbook never reads a string cell as a formula). */
function xlsxCell(value: Cell, type: ColumnType): Cell | Date {
  if (value === null) return null;
  if (type === 'money' || type === 'number') return Number(value);
  if (type === 'date') return new Date(`${value}T00:00:00Z`);
  return String(value);
}

const NUMBER_FORMATS: Partial<Record<ColumnType, string>> = { money: '0.00', date: 'yyyy-mm-dd' };

async function workbookOf(tables: readonly ReportTable[], cell: (value: Cell, type: ColumnType) => unknown) {
  const ExcelJS = await loadPackage(() => import('exceljs'));
  const workbook: Workbook = new ExcelJS.Workbook();
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.name.slice(0, 31));
    sheet.columns = table.columns.map(({ key, header, type }) => ({
      key,
      header,
      width: Math.max(12, header.length + 2),
      style: NUMBER_FORMATS[type] ? { numFmt: NUMBER_FORMATS[type] } : {},
    }));
    sheet.getRow(1).font = { bold: true };
    for (const row of table.rows)
      sheet.addRow(Object.fromEntries(table.columns.map(({ key, type }) => [key, cell(row[key], type)])));
  }
  return workbook;
}

/** The first table as CSV (its money as written, exact) (`;`-separated, as Russian spreadsheets read it, with a BOM for Excel). */
async function csvOf(table: ReportTable): Promise<Buffer> {
  const body = await (
    await workbookOf([table], csvCell)
  ).csv.writeBuffer({
    formatterOptions: { delimiter: ';', writeBOM: true },
  });
  return Buffer.from(body);
}

async function xlsxOf(tables: readonly ReportTable[]): Promise<Buffer> {
  return Buffer.from(await (await workbookOf(tables, xlsxCell)).xlsx.writeBuffer());
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
