export type { DepositsService } from './deposits.service';
export type { Deduction, Deposit, DepositRefund, DepositStatus } from './deposits.types';
