import { roomServiceFixtures } from './roomservice.fixtures';
import { defineModule } from '../../platform/modules';
import { ROOM_SERVICE_EVENTS } from './roomservice.events';
import { roomServiceRoutes } from './roomservice.routes';
import { createRoomServiceService, type RoomServiceDependencies } from './roomservice.service';

/** Room service: the menu, and the guests' orders to their rooms charged to the stay. */
export const roomServiceModule = defineModule({
  name: 'roomservice',
  fixtures: roomServiceFixtures,
  uses: ['hotels', 'rooms', 'uploads', 'bookings', 'notifications'],
  create: ({ db, config }, deps: RoomServiceDependencies) => createRoomServiceService(db, config, deps),
  routes: (service) => roomServiceRoutes(service),
  events: ROOM_SERVICE_EVENTS,
  onHotelCreated: (service, trx, hotelId) => service.settings.onHotelCreated(trx, hotelId),
});
