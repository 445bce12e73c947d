export { createAuthService, normalizeEmail, type AuthService } from './auth.service';
export { createAccountEmails, type AccountEmails } from './auth.emails';
export { authRoutes } from './auth.routes';
export { assertAcceptablePassword, hashPassword } from './auth.passwords';
export { sessionsRepository } from './auth.repository';
