import { defineModule } from '../../platform/modules';
import { authActivities } from './auth.activities';
import { authRoutes } from './auth.routes';
import { createAuthService, type AuthDependencies } from './auth.service';
import { authEnv } from './auth.env';

export const authModule = defineModule({
  name: 'auth',
  uses: ['users', 'hotels'],
  config: authEnv,
  create: (context, deps: AuthDependencies) => createAuthService(context, deps),
  routes: (auth, { config }) => authRoutes(auth, config),
  activities: authActivities,
});
