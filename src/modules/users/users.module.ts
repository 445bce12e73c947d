import { defineModule } from '../../platform/modules';
import { createUsersService } from './users.service';

/** The accounts (users table) that auth and staff share; no routes of its own. */
export const usersModule = defineModule({
  name: 'users',
  uses: [],
  create: ({ db }) => createUsersService(db),
});
