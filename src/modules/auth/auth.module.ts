import { defineModule } from '../../platform/modules';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import type { AccountActivities } from '../../../workflows/contracts/accounts';
import { createAccountEmails } from './auth.emails';
import { authRoutes } from './auth.routes';
import { createAuthService, type AuthDependencies } from './auth.service';
import { authEnv } from './auth.env';

export const authModule = defineModule({
  name: 'auth',
  uses: ['users', 'hotels'],
  config: authEnv,
  create: (context, deps: AuthDependencies) => createAuthService(context, deps),
  routes: (auth, { config }) => authRoutes(auth, config),
  activities(auth, { config, mailer }, deps): AccountActivities {
    const emails = createAccountEmails(config, mailer, deps);
    return {
      handleAccountRequest: (requestId) => auth.handleAccountRequest(requestId),
      sendAccountEmail: (purpose, userId) => sendingOnce(() => emails.sendAccountEmail(purpose, userId)),
    };
  },
});
