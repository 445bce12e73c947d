export type { FoliosService } from './folios.service';
export type { Folio, FolioLine, LineKind } from './folios.types';
export { isClosed } from './folios.rules';
