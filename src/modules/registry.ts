import type { DependenciesSatisfied, ServicesOf } from '../platform/modules';
import { auditModule } from './audit/audit.module';
import { agentsModule } from './agents/agents.module';
import { authModule } from './auth/auth.module';
import { billingModule } from './billing/billing.module';
import { blocksModule } from './blocks/blocks.module';
import { bookingsModule } from './bookings/bookings.module';
import { depositsModule } from './deposits/deposits.module';
import { cardsModule } from './cards/cards.module';
import { channelIntakeModule } from './channel-intake/channel-intake.module';
import { channelsModule } from './channels/channels.module';
import { chatModule } from './chat/chat.module';
import { fiscalModule } from './fiscal/fiscal.module';
import { foliosModule } from './folios/folios.module';
import { guestsModule } from './guests/guests.module';
import { hotelsModule } from './hotels/hotels.module';
import { invoicesModule } from './invoices/invoices.module';
import { housekeepingModule } from './housekeeping/housekeeping.module';
import { lockvendorModule } from './lockvendor/lockvendor.module';
import { maintenanceModule } from './maintenance/maintenance.module';
import { nightAuditModule } from './night-audit/night-audit.module';
import { minibarModule } from './minibar/minibar.module';
import { notificationsModule } from './notifications/notifications.module';
import { paymentsModule } from './payments/payments.module';
import { pricingModule } from './pricing/pricing.module';
import { pushModule } from './push/push.module';
import { loyaltyModule } from './loyalty/loyalty.module';
import { rentalsModule } from './rentals/rentals.module';
import { reportsModule } from './reports/reports.module';
import { retentionModule } from './retention/retention.module';
import { restrictionsModule } from './restrictions/restrictions.module';
import { reviewsModule } from './reviews/reviews.module';
import { roomServiceModule } from './roomservice/roomservice.module';
import { roomsModule } from './rooms/rooms.module';
import { staffModule } from './staff/staff.module';
import { timelineModule } from './timeline/timeline.module';
import { touristTaxModule } from './tourist-tax/tourist-tax.module';
import { tvModule } from './tv/tv.module';
import { uploadsModule } from './uploads/uploads.module';
import { usersModule } from './users/users.module';
import { widgetModule } from './widget/widget.module';
import { webhooksModule } from './webhooks/webhooks.module';
import { wifiModule } from './wifi/wifi.module';

/**
 * Every business area, in build order (a module comes after those it uses). The app's routes, the worker's
 * activities and schedules, and the rows a new hotel starts with are all collected from this list: a new area is
 * its folder and one line here.
 */
export const MODULES = [
  usersModule,
  hotelsModule,
  auditModule,
  authModule,
  staffModule,
  uploadsModule,
  roomsModule,
  restrictionsModule,
  paymentsModule,
  touristTaxModule,
  pricingModule,
  minibarModule,
  notificationsModule,
  webhooksModule,
  pushModule,
  guestsModule,
  housekeepingModule,
  rentalsModule,
  agentsModule,
  fiscalModule,
  bookingsModule,
  blocksModule,
  foliosModule,
  reportsModule,
  nightAuditModule,
  invoicesModule,
  depositsModule,
  billingModule,
  widgetModule,
  channelsModule,
  channelIntakeModule,
  tvModule,
  maintenanceModule,
  lockvendorModule,
  cardsModule,
  wifiModule,
  chatModule,
  loyaltyModule,
  reviewsModule,
  roomServiceModule,
  retentionModule,
  timelineModule,
] as const;

export type Services = ServicesOf<typeof MODULES>;

// Fails to compile when a module's declared dependencies are not what the registry builds under those names.
type AllTrue<T extends Record<string, true>> = T;
export type ModuleDependenciesChecked = AllTrue<DependenciesSatisfied<typeof MODULES>>;
