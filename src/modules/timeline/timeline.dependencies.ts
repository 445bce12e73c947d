import type { AuditService } from '../audit';
import type { BookingsService } from '../bookings';
import type { OnlinePayments } from '../billing';
import type { CardsService } from '../cards';
import type { DepositsService } from '../deposits';
import type { FiscalService } from '../fiscal';
import type { FoliosService } from '../folios';
import type { HotelsService } from '../hotels';
import type { InvoicesService } from '../invoices';
import type { LoyaltyService } from '../loyalty';
import type { NotificationsService } from '../notifications';
import type { PaymentsService } from '../payments';
import type { ReviewsService } from '../reviews';
import type { RoomsService } from '../rooms';
import type { RoomServiceService } from '../roomservice';
import type { TvService } from '../tv';
import type { UsersService } from '../users';

/** The other modules' reads a timeline is made of, each through its module's door. */
export interface TimelineDependencies {
  audit: Pick<AuditService, 'forResource' | 'writesOf' | 'ofRequests'>;
  bookings: Pick<BookingsService, 'get' | 'guestEmailsSent'>;
  payments: Pick<PaymentsService, 'ledger'>;
  billing: { onlinePayments: Pick<OnlinePayments, 'ofReadBooking'> };
  deposits: Pick<DepositsService, 'ofBooking'>;
  fiscal: Pick<FiscalService, 'ofSources'>;
  cards: Pick<CardsService, 'forBooking'>;
  tv: Pick<TvService, 'logOfBooking'>;
  roomservice: { orders: Pick<RoomServiceService['orders'], 'list'> };
  notifications: Pick<NotificationsService, 'aboutBooking'>;
  reviews: Pick<ReviewsService, 'ofBooking'>;
  loyalty: Pick<LoyaltyService, 'entriesOfBooking'>;
  folios: Pick<FoliosService, 'linesForTimeline'>;
  invoices: Pick<InvoicesService, 'list'>;
  users: Pick<UsersService, 'namesInHotel'>;
  rooms: Pick<RoomsService, 'numbersOf'>;
  hotels: Pick<HotelsService, 'find'>;
}
