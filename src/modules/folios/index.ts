export type { FoliosService } from './folios.service';
export type { Folio, FolioLine, LineKind } from './folios.types';
export type { DueKind, ReceiptDue } from './folios.dues';
export { isClosed } from './folios.rules';
