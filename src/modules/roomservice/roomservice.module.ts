import { roomServiceFixtures } from './roomservice.fixtures';
import { defineModule } from '../../platform/modules';
import { ROOM_SERVICE_EVENTS } from './roomservice.events';
import { roomServiceRoutes } from './roomservice.routes';
import { createRoomServiceService, type RoomServiceDependencies } from './roomservice.service';
import { scrubbed } from '../../platform/personal-data';

/** Room service: the menu, and the guests' orders to their rooms charged to the stay. */
export const roomServiceModule = defineModule({
  name: 'roomservice',
  fixtures: roomServiceFixtures,
  uses: ['hotels', 'rooms', 'uploads', 'bookings', 'notifications'],
  personalData: [scrubbed('room_service_orders', 'booking', [{ name: 'note' }, { name: 'cancel_reason' }])],
  create: ({ db, config }, deps: RoomServiceDependencies) => createRoomServiceService(db, config, deps),
  routes: (service) => roomServiceRoutes(service),
  events: ROOM_SERVICE_EVENTS,
  onHotelCreated: (service, trx, hotelId) => service.settings.onHotelCreated(trx, hotelId),
});
