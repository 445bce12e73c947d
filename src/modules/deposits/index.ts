export type { DepositsService } from './deposits.service';
export type { Deduction, Deposit, DepositStatus } from './deposits.types';
