import { defineModule } from '../../platform/modules';
import { widgetRoutes } from './widget.routes';
import { createWidgetService, type WidgetDependencies } from './widget.service';

/** The public booking widget on the hotel's own site, and the settings staff give it. */
export const widgetModule = defineModule({
  name: 'widget',
  uses: ['hotels', 'rooms', 'rentals', 'guests', 'bookings', 'payments', 'notifications', 'billing'],
  create: ({ db }, deps: WidgetDependencies) => createWidgetService(db, deps),
  routes: (widget, { config }) => widgetRoutes(widget, config),
  onHotelCreated: (widget, trx, hotelId) => widget.settings.onHotelCreated(trx, hotelId),
});
