import { defineModule } from '../../platform/modules';
import { createRoomServiceService } from './roomservice.service';

/** Room service: the menu, and the guests' orders to their rooms charged to the stay. */
export const roomServiceModule = defineModule({
  name: 'roomservice',
  uses: [],
  create: ({ db }) => createRoomServiceService(db),
});
