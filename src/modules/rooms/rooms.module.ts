import { defineModule } from '../../platform/modules';
import { roomsRoutes } from './rooms.routes';
import { createRoomsService } from './rooms.service';

export const roomsModule = defineModule({
  name: 'rooms',
  uses: [],
  create: ({ db, config }) => createRoomsService(db, config.cdnUrl),
  routes: (rooms) => roomsRoutes(rooms),
});
