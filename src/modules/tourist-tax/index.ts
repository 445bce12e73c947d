export type { TaxedStay, TouristTaxService } from './tourist-tax.service';
export type { NightTax, StayTax } from './tourist-tax.types';
export { reportMonth, reportSchema as touristTaxReportSchema, stayTaxSchema } from './tourist-tax.schemas';
export { NO_TOURIST_TAX } from './tourist-tax.rules';
export { reencryptExemptionDocuments } from './tourist-tax.rotation';
export { nightsOf, spread } from './tourist-tax.rules';
export { reportRows as touristTaxRows, type MonthReport } from './tourist-tax.report';
export { REPORT_READERS as TOURIST_TAX_REPORT_READERS } from './tourist-tax.routes';
