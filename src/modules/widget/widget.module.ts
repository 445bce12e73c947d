import { defineModule } from '../../platform/modules';
import { widgetRoutes } from './widget.routes';
import { createWidgetService, type WidgetDependencies } from './widget.service';
import { widgetEnv } from './widget.env';

/** The public booking widget on the hotel's own site, and the settings staff give it. */
export const widgetModule = defineModule({
  name: 'widget',
  uses: ['hotels', 'rooms', 'rentals', 'guests', 'bookings', 'payments', 'notifications', 'billing', 'touristTax'],
  config: widgetEnv,
  create: ({ db }, deps: WidgetDependencies) => createWidgetService(db, deps),
  routes: (widget, { config }) => widgetRoutes(widget, config),
  onHotelCreated: (widget, trx, hotelId) => widget.settings.onHotelCreated(trx, hotelId),
  http: {
    prefix: '/api/widget',
    // Anonymous callers on the open internet send a form, never more: names, contacts, dates, a comment of at most
    // 2000 characters. Their bodies get a much smaller limit (413).
    bodyLimit: '16kb',
    hotelOrigins: (widget, slug) => widget.allowedOrigins(slug),
  },
});
