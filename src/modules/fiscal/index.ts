export type { FiscalReceiptCommand, FiscalService } from './fiscal.service';
export type { FiscalReceipt, PrepareReceipt, ReceiptFailure, ReceiptOperation, SourceKind } from './fiscal.types';
export { receiptSchema } from './fiscal.schemas';
