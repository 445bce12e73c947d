export type { DepositsService } from './deposits.service';
export type { Deduction, Deposit, DepositStatus } from './deposits.types';
export type { OnlinePayments } from './online-payments';
