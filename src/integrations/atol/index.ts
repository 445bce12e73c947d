export { parseFiscalResult } from './answers';
export { AtolTaskError } from './errors';
export { ATOL_LIMITS, closeShiftTask, openShiftTask, sellReturnTask, sellTask, taxTypeOf } from './tasks';
export * from './types';
