import { defineModule } from '../../platform/modules';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import type { AccountActivities } from '../../../workflows/contracts/accounts';
import { createAccountEmails } from './auth.emails';
import { authRoutes } from './auth.routes';
import { createAuthService } from './auth.service';

export const authModule = defineModule({
  name: 'auth',
  uses: [],
  create: (context) => createAuthService(context),
  routes: (auth, { config }) => authRoutes(auth, config),
  activities(auth, { db, config, mailer }): AccountActivities {
    const emails = createAccountEmails(db, config, mailer);
    return {
      handleAccountRequest: (requestId) => auth.handleAccountRequest(requestId),
      sendAccountEmail: (purpose, userId) => sendingOnce(() => emails.sendAccountEmail(purpose, userId)),
    };
  },
});
