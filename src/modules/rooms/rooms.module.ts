import { roomsFixtures } from './rooms.fixtures';
import { defineModule } from '../../platform/modules';
import { roomUpdated } from './rooms.events';
import type { UploadsService } from '../uploads';
import { roomsRoutes } from './rooms.routes';
import { createRoomsService } from './rooms.service';

export const roomsModule = defineModule({
  name: 'rooms',
  fixtures: roomsFixtures,
  uses: ['uploads'],
  create: ({ db }, deps: { uploads: Pick<UploadsService, 'assertOwnUploads'> }) => createRoomsService(db, deps),
  events: [roomUpdated],
  routes: (rooms) => roomsRoutes(rooms),
});
