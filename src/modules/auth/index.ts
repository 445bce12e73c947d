export type { AuthService } from './auth.service';
export { assertAcceptablePassword, hashPassword } from './auth.passwords';
